// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WalletIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AppShell } from './app-shell';
import type { NavGroup } from './app-shell-nav';

const groups: NavGroup[] = [
  {
    title: 'Trading',
    items: [
      { to: '/user/wallet', label: 'Wallet', icon: WalletIcon },
      { to: '/user/buy', label: 'Buy' },
    ],
  },
  { title: 'Settings', items: [{ to: '/user/account', label: 'Account' }] },
];

function CurrentPath() {
  return <p data-testid="path">{useLocation().pathname}</p>;
}

function renderShellAt(path: string, topBarActions?: ReactNode) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path="*"
          element={
            <AppShell navGroups={groups} topBarActions={topBarActions}>
              <CurrentPath />
            </AppShell>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
  return { user: userEvent.setup() };
}

describe('signed-in shell', () => {
  it('has a top bar with the brand to /dashboard, Account and Logout', () => {
    renderShellAt('/user/wallet');
    expect(screen.getByRole('link', { name: 'CoinVault' })).toHaveAttribute('href', '/dashboard');
    const accountBar = screen.getByRole('navigation', { name: 'Account' });
    expect(within(accountBar).getByRole('link', { name: 'Account' })).toHaveAttribute(
      'href',
      '/user/account',
    );
    expect(within(accountBar).getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/logout');
  });

  it("puts the area's own controls (the notification bell) first in the top bar's account links", () => {
    renderShellAt('/user/wallet', <button type="button">Notifications</button>);
    const accountBar = screen.getByRole('navigation', { name: 'Account' });
    expect(within(accountBar).getAllByRole('button')[0]).toHaveAccessibleName('Notifications');
  });

  it('builds the side menu from its groups, highlights the current route and ends with Logout', () => {
    renderShellAt('/user/buy');
    const menu = screen.getByRole('navigation', { name: 'Side menu' });
    expect(
      within(menu)
        .getAllByRole('heading')
        .map((heading) => heading.textContent),
    ).toEqual(['Trading', 'Settings']);
    const links = within(menu).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Wallet', 'Buy', 'Account', 'Logout']);
    expect(within(menu).getByRole('link', { name: 'Buy' })).toHaveAttribute('aria-current', 'page');
    expect(within(menu).getByRole('link', { name: 'Wallet' })).not.toHaveAttribute('aria-current');
  });

  it('names each menu group by its title, with ids unique even when the menu is shown twice', async () => {
    const { user } = renderShellAt('/user/buy');
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    // The open sheet is modal: the sidebar behind it is hidden from the accessibility tree, not gone.
    const menus = screen.getAllByRole('navigation', { name: 'Side menu', hidden: true });
    expect(menus).toHaveLength(2);
    for (const menu of menus) {
      expect(within(menu).getByRole('region', { name: 'Trading', hidden: true })).toBeInTheDocument();
      expect(within(menu).getByRole('region', { name: 'Settings', hidden: true })).toBeInTheDocument();
    }
    const ids = [...document.querySelectorAll('[id]')].map((element) => element.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('opens the small-screen menu with its toggle and closes it with Escape', async () => {
    const { user } = renderShellAt('/user/wallet');
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    await user.click(toggle);
    expect(screen.getByRole('dialog', { name: 'Menu' })).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(toggle).toHaveFocus();
  });

  it('closes the small-screen menu with its close button', async () => {
    const { user } = renderShellAt('/user/wallet');
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes the small-screen menu when a link is chosen, and goes there', async () => {
    const { user } = renderShellAt('/user/wallet');
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const dialog = screen.getByRole('dialog', { name: 'Menu' });
    await user.click(within(dialog).getByRole('link', { name: 'Account' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('path')).toHaveTextContent('/user/account');
  });
});
