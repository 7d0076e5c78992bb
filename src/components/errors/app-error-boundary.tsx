import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorScreen } from './error-screen';

interface State {
  failed: boolean;
}

/** The top-level error boundary: whatever breaks while rendering, the visitor gets a calm page. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Uncaught rendering error', error, info.componentStack);
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return <ErrorScreen title="Sorry.. there was an error" detail="Reloading the page usually helps." />;
  }
}
