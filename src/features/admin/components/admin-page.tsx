import type { ReactNode } from 'react';
import { useAuth } from '@/lib/auth';
import { NO_PERMISSION_MESSAGE } from '../api/admin-messages';
import { ErrorMessage } from '@/components/error-message';

/**
 * An admin page's frame: its heading, and its own role check (specification §2) behind the area's guard,
 * so a page rendered outside the guard still shows nothing to a non-admin.
 */
export function AdminPage({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const { isAdmin } = useAuth();
  return (
    <section className="mx-auto grid w-full max-w-6xl grid-cols-[minmax(0,1fr)] gap-6">
      <header className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description && <p className="text-muted-foreground text-sm">{description}</p>}
      </header>
      {isAdmin ? children : <ErrorMessage>{NO_PERMISSION_MESSAGE}</ErrorMessage>}
    </section>
  );
}
