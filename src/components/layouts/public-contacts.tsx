import { MailIcon, PhoneIcon } from 'lucide-react';
import { company } from '@/config/company';
import { cn } from '@/lib/utils';

const linkClass =
  'focus-visible:ring-ring inline-flex min-h-10 items-center gap-2 rounded-sm hover:underline focus-visible:ring-2 focus-visible:outline-none sm:min-h-0';

/** The company's phone numbers (one per country) and e-mail, as the footer and legal pages list them. */
export function PublicContacts({ className }: { className?: string }) {
  return (
    <ul className={cn('space-y-1 text-sm', className)}>
      {company.phones.map((phone) => (
        <li key={phone.country}>
          <a href={`tel:${phone.dial}`} className={linkClass}>
            <PhoneIcon aria-hidden className="size-4 shrink-0 opacity-70" />
            <span>
              {phone.country}: <span className="tabular-nums">{phone.display}</span>
            </span>
          </a>
        </li>
      ))}
      <li>
        <a href={`mailto:${company.email}`} className={linkClass}>
          <MailIcon aria-hidden className="size-4 shrink-0 opacity-70" />
          {company.email}
        </a>
      </li>
    </ul>
  );
}
