import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';

/** A whole-page error: the title, what happened, Reload, and any other way out. */
export function ErrorScreen({
  title,
  detail,
  children,
}: {
  title: string;
  detail: string;
  children?: ReactNode;
}) {
  return (
    <main className="bg-background text-foreground grid min-h-screen place-items-center p-6">
      <div role="alert" className="flex max-w-md flex-col items-center gap-4 text-center">
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="text-muted-foreground break-words">{detail}</p>
        <div className="flex gap-3">
          <Button onClick={() => window.location.reload()}>Reload</Button>
          {children}
        </div>
      </div>
    </main>
  );
}
