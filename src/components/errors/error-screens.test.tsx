import { render, screen } from '@testing-library/react';
import { vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AppErrorBoundary } from './app-error-boundary';
import { RouteErrorScreen } from './route-error-screen';

function Broken(): never {
  throw new Error('render failed');
}

describe('error screens', () => {
  it("shows 'Sorry.. there was an error' when rendering breaks anywhere in the app", () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <AppErrorBoundary>
        <Broken />
      </AppErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Sorry.. there was an error');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });

  it("shows the router's 'Unexpected Application Error!' when a page fails to load", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const router = createMemoryRouter([
      {
        errorElement: <RouteErrorScreen />,
        children: [
          {
            path: '/',
            lazy: () => Promise.reject(new Error('Failed to fetch dynamically imported module')),
          },
        ],
      },
    ]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText('Failed to fetch dynamically imported module')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  });
});
