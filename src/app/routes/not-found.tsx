import { Link, useLocation } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { hasStoredSession } from '@/lib/stored-session';

/** An address no page answers: said plainly, with the way home (or to the person's own area). */
export default function NotFoundRoute() {
  const { pathname } = useLocation();
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-20 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-muted-foreground break-all">There is no page at {pathname}.</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonVariants({ variant: hasStoredSession() ? 'outline' : 'default' })}>
          Go to the home page
        </Link>
        {hasStoredSession() && (
          <Link to="/dashboard" className={buttonVariants()}>
            Go to my area
          </Link>
        )}
      </div>
    </section>
  );
}
