// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { PublicHeader } from './public-header';

function renderHeader({ signedIn = false } = {}) {
  return render(
    <MemoryRouter initialEntries={['/']}>
      <PublicHeader signedIn={signedIn} />
      <Routes>
        <Route path="/" element={<p>landing page</p>} />
        <Route path="/login" element={<p>login page</p>} />
        <Route path="/signup" element={<p>signup page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('the public navigation bar', () => {
  it('links the brand home and offers Login and Sign Up', () => {
    renderHeader();
    expect(screen.getByRole('link', { name: 'CoinVault' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/signup');
  });

  it('offers a signed-in person (on a reset link) Account and Logout instead of Login', () => {
    renderHeader({ signedIn: true });
    expect(screen.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/user/account');
    expect(screen.getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/logout');
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
  });

  it('opens the small-screen menu with the same two links and closes it after a choice', async () => {
    const user = userEvent.setup();
    renderHeader();
    const menuButton = screen.getByRole('button', { name: 'Open menu' });
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');

    await user.click(menuButton);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    const menu = document.getElementById('public-menu');
    expect(menu).not.toBeNull();
    expect([...(menu?.querySelectorAll('a') ?? [])].map((link) => link.textContent)).toEqual([
      'Login',
      'Sign Up',
    ]);

    await user.click(screen.getAllByRole('link', { name: 'Sign Up' })[1] as HTMLElement);
    expect(screen.getByText('signup page')).toBeInTheDocument();
    expect(document.getElementById('public-menu')).toBeNull();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the menu when the button is pressed again', async () => {
    const user = userEvent.setup();
    renderHeader();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(document.getElementById('public-menu')).toBeNull();
  });
});
