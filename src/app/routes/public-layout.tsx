import { Outlet } from 'react-router-dom';
import { PublicLayout } from '@/components/layouts/public-layout';
import { hasStoredSession } from '@/lib/stored-session';

/**
 * The public shell of the landing, legal and 404 pages. Whether someone is signed in is the stored session's
 * hint, so these pages never load supabase-js for a visitor; a stale hint costs one redirect to /login.
 */
export default function PublicLayoutRoute() {
  return (
    <PublicLayout signedIn={hasStoredSession()}>
      <Outlet />
    </PublicLayout>
  );
}
