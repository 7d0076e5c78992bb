import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';

/**
 * Landing hero: the specification's heading and copy, the two calls to action (or, for someone `signedIn`, the
 * way to their area), the dashboard preview.
 */
export function Hero({ signedIn = false }: { signedIn?: boolean }) {
  return (
    <section className="mx-auto grid max-w-6xl items-center gap-10 px-4 pt-12 pb-8 sm:px-6 lg:grid-cols-[5fr_6fr] lg:pt-20">
      <div className="flex flex-col gap-6">
        <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-5xl">Welcome to the product</h1>
        <p className="text-muted-foreground max-w-prose text-lg text-pretty">
          Your all-in-one solution for tracking, analyzing and buying cryptocurrency. Get real-time market
          data, advanced analytics and personalized insights, all in one place.
        </p>
        <div className="flex flex-col gap-3 sm:flex-row">
          {signedIn ? (
            <Link to="/dashboard" className={buttonVariants({ size: 'lg' })}>
              Go to my area
            </Link>
          ) : (
            <>
              <Link to="/signup" className={buttonVariants({ size: 'lg' })}>
                Get Started
              </Link>
              <Link to="/login" className={buttonVariants({ size: 'lg', variant: 'outline' })}>
                Log In
              </Link>
            </>
          )}
        </div>
      </div>
      <img
        src="/dashboard-preview.png"
        alt="Preview of the wallet dashboard: available balance, wallet code, live cryptocurrency prices and the converter"
        width={1200}
        height={800}
        fetchPriority="high"
        className="h-auto w-full rounded-2xl border shadow-xl"
      />
    </section>
  );
}
