// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { company } from '@/config/company';
import { PublicFooter } from './public-footer';

describe('the public footer', () => {
  it('links Sign Up, Sign In, the three legal pages and the proof of liabilities', () => {
    render(<PublicFooter />, { wrapper: MemoryRouter });
    const links = within(screen.getByRole('navigation', { name: 'Footer' })).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Sign Up', '/signup'],
      ['Sign In', '/login'],
      ['Terms of Service', '/terms-of-service'],
      ['Privacy Policy', '/privacy-policy'],
      ['Disclaimer', '/disclaimer'],
      ['Proof of liabilities', '/proof'],
    ]);
  });

  it('lists a phone number for each of four countries and the contact e-mail', () => {
    render(<PublicFooter />, { wrapper: MemoryRouter });
    const contact = within(screen.getByRole('region', { name: 'Contact Us' }));
    const phones = contact
      .getAllByRole('link')
      .filter((link) => link.getAttribute('href')?.startsWith('tel:'));
    expect(phones).toHaveLength(4);
    expect(contact.getByRole('link', { name: company.email })).toHaveAttribute(
      'href',
      `mailto:${company.email}`,
    );
  });

  it('lists the offices in Canada, the UK, the Netherlands and Switzerland', () => {
    render(<PublicFooter />, { wrapper: MemoryRouter });
    const offices = within(screen.getByRole('region', { name: 'Our Offices' })).getAllByRole('listitem');
    expect(offices.map((office) => office.querySelector('p')?.textContent)).toEqual([
      'Toronto, Canada',
      'London, United Kingdom',
      'Amsterdam, Netherlands',
      'Zurich, Switzerland',
    ]);
  });

  it('shows the copyright with the current year', () => {
    render(<PublicFooter />, { wrapper: MemoryRouter });
    expect(screen.getByText(new RegExp(`© ${new Date().getFullYear()} `))).toBeInTheDocument();
  });
});
