import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';
import { Button } from '@/components/ui/button';

function errorSummary(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return 'Something went wrong while loading this page.';
}

/** The router's error screen, for a page that fails to load or render. */
export function RouteErrorScreen() {
  const error = useRouteError();
  return (
    <main className="bg-background text-foreground grid min-h-screen place-items-center p-6">
      <div role="alert" className="flex max-w-md flex-col items-center gap-4 text-center">
        <h1 className="text-2xl font-semibold">Unexpected Application Error!</h1>
        <p className="text-muted-foreground break-words">{errorSummary(error)}</p>
        <div className="flex gap-3">
          <Button onClick={() => window.location.reload()}>Reload</Button>
          <Button asChild variant="outline">
            <Link to="/">Home</Link>
          </Button>
        </div>
      </div>
    </main>
  );
}
