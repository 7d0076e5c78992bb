// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Hero } from './hero';

describe('the landing hero', () => {
  it('greets the visitor and offers to get started or log in', () => {
    render(<Hero />, { wrapper: MemoryRouter });
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome to the product' })).toBeInTheDocument();
    expect(
      screen.getByText(/all-in-one solution for tracking, analyzing and buying cryptocurrency/),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/signup');
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
  });

  it('the landing page shows a signed-in person the way to their area instead of Get Started and Log In', () => {
    render(<Hero signedIn />, { wrapper: MemoryRouter });
    expect(screen.getByRole('link', { name: 'Go to my area' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('link', { name: 'Get Started' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log In' })).not.toBeInTheDocument();
  });

  it('shows a dashboard preview with a description and a fixed size, so it does not shift the page', () => {
    render(<Hero />, { wrapper: MemoryRouter });
    const preview = screen.getByRole('img', { name: /Preview of the wallet dashboard/ });
    expect(preview).toHaveAttribute('width', '1200');
    expect(preview).toHaveAttribute('height', '800');
  });
});
