// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import { lazy, Suspense } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { AppErrorBoundary } from './app-error-boundary';
import { MISSING_PAGE_CODE_MESSAGE } from './missing-page-code';
import { RouteErrorBoundary } from './route-error-boundary';

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

  it("shows the router's 'Unexpected Application Error!' when a page fails to load again after its reload, until the visitor leaves it", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // The page reloaded itself a moment ago for this failure, so it does not again.
    sessionStorage.setItem('reloadedForMissingCodeAt', String(Date.now()));
    const BrokenPage = lazy(() =>
      Promise.reject(
        new Error('Failed to fetch dynamically imported module: http://localhost/assets/buy-AbCd1234.js'),
      ),
    );
    function Pages() {
      const { pathname } = useLocation();
      return (
        <RouteErrorBoundary pathname={pathname}>
          <Suspense>
            <Routes>
              <Route path="/broken" element={<BrokenPage />} />
              <Route path="/" element={<h1>Landing</h1>} />
            </Routes>
          </Suspense>
        </RouteErrorBoundary>
      );
    }
    render(
      <MemoryRouter initialEntries={['/broken']}>
        <Pages />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText(MISSING_PAGE_CODE_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('alert')).not.toHaveTextContent('/assets/');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Home' }));
    expect(await screen.findByRole('heading', { name: 'Landing' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
