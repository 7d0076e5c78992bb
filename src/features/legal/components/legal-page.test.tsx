// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { company } from '@/config/company';
import { disclaimer } from '../content/disclaimer';
import { privacyPolicy } from '../content/privacy-policy';
import { termsOfService } from '../content/terms-of-service';
import { LegalPage } from './legal-page';

describe.each([termsOfService, privacyPolicy, disclaimer])('the $title page', (document) => {
  it('has a title, numbered sections with real text and its last update', () => {
    render(<LegalPage document={document} />);
    expect(screen.getByRole('heading', { level: 1, name: document.title })).toBeInTheDocument();
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings[0]).toMatch(/^1\. \w+/);
    expect(headings.length).toBeGreaterThanOrEqual(5);
    expect(
      document.sections
        .flatMap((section) => section.paragraphs)
        .join(' ')
        .split(' ').length,
    ).toBeGreaterThan(100);
    expect(screen.getByText(/Last updated/)).toHaveTextContent(/Last updated \d{1,2} \w+ \d{4}/);
  });

  it('lists the phone numbers for four countries and the contact e-mail', () => {
    render(<LegalPage document={document} />);
    const contact = within(screen.getByRole('region', { name: 'Questions about this page' }));
    for (const phone of company.phones) {
      expect(contact.getByRole('link', { name: `${phone.country}: ${phone.display}` })).toHaveAttribute(
        'href',
        `tel:${phone.dial}`,
      );
    }
    expect(contact.getByRole('link', { name: company.email })).toHaveAttribute(
      'href',
      `mailto:${company.email}`,
    );
  });
});
