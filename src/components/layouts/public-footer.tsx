import { Link } from 'react-router-dom';
import { company } from '@/config/company';
import { BrandMark } from './brand-mark';
import { PublicContacts } from './public-contacts';

const footerLinks = [
  { to: '/signup', label: 'Sign Up' },
  { to: '/login', label: 'Sign In' },
  { to: '/terms-of-service', label: 'Terms of Service' },
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/disclaimer', label: 'Disclaimer' },
  { to: '/proof', label: 'Proof of liabilities' },
] as const;

const headingClass = 'text-foreground mb-3 text-sm font-semibold';

export function PublicFooter() {
  return (
    <footer className="bg-card text-muted-foreground border-t">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:grid-cols-2 sm:px-6 lg:grid-cols-4">
        <div>
          <Link
            to="/"
            className="text-foreground focus-visible:ring-ring inline-flex items-center gap-2 rounded-md font-semibold focus-visible:ring-2 focus-visible:outline-none"
          >
            <BrandMark className="size-7" />
            {company.name}
          </Link>
          <p className="mt-3 text-sm">{company.tagline}</p>
        </div>

        <nav aria-label="Footer">
          <h2 className={headingClass}>Quick Links</h2>
          <ul className="space-y-1 text-sm">
            {footerLinks.map(({ to, label }) => (
              <li key={to}>
                <Link
                  to={to}
                  className="focus-visible:ring-ring inline-flex min-h-10 items-center rounded-sm hover:underline focus-visible:ring-2 focus-visible:outline-none sm:min-h-0"
                >
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className={headingClass}>
            Contact Us
          </h2>
          <PublicContacts />
        </section>

        <section aria-labelledby="footer-offices">
          <h2 id="footer-offices" className={headingClass}>
            Our Offices
          </h2>
          <ul className="space-y-3 text-sm">
            {company.offices.map((office) => (
              <li key={office.country}>
                <p className="text-foreground font-medium">
                  {office.city}, {office.country}
                </p>
                <address className="not-italic">
                  {office.addressLines.map((line) => (
                    <span key={line} className="block">
                      {line}
                    </span>
                  ))}
                </address>
              </li>
            ))}
          </ul>
        </section>
      </div>
      <div className="border-t">
        <p className="mx-auto max-w-6xl px-4 py-6 text-xs sm:px-6">
          © {new Date().getFullYear()} {company.legalName} All rights reserved.
        </p>
      </div>
    </footer>
  );
}
