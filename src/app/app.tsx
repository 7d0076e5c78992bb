import { BrowserRouter } from 'react-router-dom';
import { AppErrorBoundary } from '@/components/errors/app-error-boundary';
import { AppRoot } from './app-root';
import { AppProvider } from './provider';

export function App() {
  return (
    <AppErrorBoundary>
      <AppProvider>
        <BrowserRouter>
          <AppRoot />
        </BrowserRouter>
      </AppProvider>
    </AppErrorBoundary>
  );
}
