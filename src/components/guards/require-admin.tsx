import type { ReactNode } from 'react';
import { useAuth } from '@/lib/auth';
import { RedirectToLogin } from './redirect-to-login';
import { SessionPending } from './session-pending';

export const noPermissionMessage = 'You do not have permission to view this page.';

/**
 * The admin pages' own role check (spec §2), on top of the /admin area guard: visitors go to /login,
 * signed-in non-admins see that they lack permission. The database enforces the same rule.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { isLoading, session, isAdmin } = useAuth();
  if (isLoading) return <SessionPending />;
  if (!session) return <RedirectToLogin />;
  if (!isAdmin) {
    return (
      <p role="alert" className="text-destructive p-6">
        {noPermissionMessage}
      </p>
    );
  }
  return children;
}
