import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { ErrorScreen } from './error-screen';
import { isMissingPageCode, MISSING_PAGE_CODE_MESSAGE, reloadOnceForMissingCode } from './missing-page-code';

interface Props {
  /** The page being shown: going to another page clears the error screen. */
  pathname: string;
  children: ReactNode;
}

interface State {
  error: unknown;
  pathname: string;
  /** Reloading by itself to fetch the page's code again: nothing to show meanwhile. */
  reloading?: boolean;
}

const noError = Symbol('no error');

function errorSummary(error: unknown): string {
  // A failed import's message is the chunk's raw URL, which tells a person nothing.
  if (isMissingPageCode(error)) return MISSING_PAGE_CODE_MESSAGE;
  if (error instanceof Error) return error.message;
  return 'Something went wrong while loading this page.';
}

/**
 * The router's error screen, 'Unexpected Application Error!' (spec §2), for a page that fails to load
 * its code or to render. The app's header links and the back button still work: leaving the broken
 * page shows the next one again.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  state: State = { error: noError, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.pathname === state.pathname) return null;
    return { error: noError, pathname: props.pathname };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Page failed to load or render', error, info.componentStack);
    if (isMissingPageCode(error) && reloadOnceForMissingCode()) this.setState({ reloading: true });
  }

  render() {
    if (this.state.error === noError) return this.props.children;
    if (this.state.reloading) return null;
    return (
      <ErrorScreen title="Unexpected Application Error!" detail={errorSummary(this.state.error)}>
        <Link to="/" className={buttonVariants({ variant: 'outline' })}>
          Home
        </Link>
      </ErrorScreen>
    );
  }
}
