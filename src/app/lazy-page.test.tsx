// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { vi } from 'vitest';
import { AppErrorBoundary } from '@/components/errors/app-error-boundary';
import { lazyPage } from './lazy-page';

const walletModule = { default: () => <h1>Your Wallet</h1> };

describe('a lazily loaded page', () => {
  it('shows the fallback while its code loads, then the page', async () => {
    let arrive = (_module: typeof walletModule) => {};
    const Wallet = lazyPage(() => new Promise((resolve) => (arrive = resolve)));
    await act(async () => {
      render(
        <Suspense fallback={<p>loading</p>}>
          <Wallet />
        </Suspense>,
      );
    });
    expect(screen.getByText('loading')).toBeInTheDocument();
    await act(async () => arrive(walletModule));
    expect(await screen.findByRole('heading', { name: 'Your Wallet' })).toBeInTheDocument();
  });

  it('renders at once, without suspending, once preloaded, and loads its code only once', async () => {
    const load = vi.fn(() => Promise.resolve(walletModule));
    const Wallet = lazyPage(load);
    await Wallet.preload();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Wallet />
      </Suspense>,
    );
    expect(screen.getByRole('heading', { name: 'Your Wallet' })).toBeInTheDocument();
    expect(screen.queryByText('loading')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('hands a failed load to the error boundary once, without retrying in a loop', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = vi.fn(() => Promise.reject(new Error('Failed to fetch dynamically imported module')));
    const Broken = lazyPage(load);
    await act(async () => {
      render(
        <AppErrorBoundary>
          <Suspense>
            <Broken />
          </Suspense>
        </AppErrorBoundary>,
      );
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry.. there was an error');
    expect(load).toHaveBeenCalledTimes(1);
  });
});
