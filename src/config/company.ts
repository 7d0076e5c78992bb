/** Company contacts: the one place the footer and the legal pages read them from. */

export interface CompanyPhone {
  country: string;
  /** As printed. */
  display: string;
  /** For `tel:` links (E.164). */
  dial: string;
}

export interface CompanyOffice {
  country: string;
  city: string;
  addressLines: readonly string[];
}

export const company = {
  name: 'CoinVault',
  legalName: 'CoinVault Ltd.',
  tagline: 'Your all-in-one solution for cryptocurrency tracking and analysis.',
  email: 'support@coinvault.example',
  phones: [
    { country: 'Canada', display: '+1 (416) 555-0142', dial: '+14165550142' },
    { country: 'United Kingdom', display: '+44 20 7946 0321', dial: '+442079460321' },
    { country: 'Netherlands', display: '+31 20 555 0187', dial: '+31205550187' },
    { country: 'Switzerland', display: '+41 44 555 01 64', dial: '+41445550164' },
  ],
  offices: [
    {
      country: 'Canada',
      city: 'Toronto',
      addressLines: ['100 King Street West, Suite 5600', 'Toronto, ON M5X 1C9'],
    },
    { country: 'United Kingdom', city: 'London', addressLines: ['1 Canada Square', 'London E14 5AB'] },
    {
      country: 'Netherlands',
      city: 'Amsterdam',
      addressLines: ['Gustav Mahlerplein 2', '1082 MA Amsterdam'],
    },
    { country: 'Switzerland', city: 'Zurich', addressLines: ['Bahnhofstrasse 10', '8001 Zürich'] },
  ],
} as const satisfies {
  name: string;
  legalName: string;
  tagline: string;
  email: string;
  phones: readonly CompanyPhone[];
  offices: readonly CompanyOffice[];
};
