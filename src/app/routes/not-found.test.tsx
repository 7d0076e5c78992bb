// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import NotFoundRoute from './not-found';

describe('a 404 page for unknown URLs', () => {
  it('says there is no page at the address, and leads home', () => {
    render(
      <MemoryRouter initialEntries={['/user/nowhere']}>
        <NotFoundRoute />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('There is no page at /user/nowhere.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('link', { name: 'Go to my area' })).not.toBeInTheDocument();
  });
});
