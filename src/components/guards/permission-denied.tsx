import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { usePageTitle } from '@/lib/page-title';

/** What a signed-in person sees on a page their role may not open (spec §2), with the way to their own area. */
export function PermissionDenied() {
  usePageTitle('Access denied');
  return (
    <main id="main" className="bg-background text-foreground grid min-h-screen place-items-center p-6">
      <div className="flex max-w-md flex-col items-center gap-4 text-center">
        <h1 className="text-2xl font-semibold">Access denied</h1>
        <p className="text-muted-foreground">You do not have permission to view this page.</p>
        <Link to="/dashboard" className={buttonVariants()}>
          Go to my area
        </Link>
      </div>
    </main>
  );
}
