import { Navigate } from 'react-router-dom';
import { RedirectToLogin } from '@/components/guards/redirect-to-login';
import { SessionPending } from '@/components/guards/session-pending';
import { useAuth } from '@/lib/auth';

/** /dashboard: admins to /admin, everyone else to /user (spec §2). */
export default function DashboardRoute() {
  const { isLoading, session, isAdmin } = useAuth();
  if (isLoading) return <SessionPending />;
  if (!session) return <RedirectToLogin />;
  return <Navigate to={isAdmin ? '/admin' : '/user'} replace />;
}
