import { company } from '@/config/company';
import type { LegalDocument } from './legal-document';

export const disclaimer: LegalDocument = {
  title: 'Disclaimer',
  updated: '2026-11-01',
  summary: `Please read this disclaimer before relying on anything you see on ${company.name}.`,
  sections: [
    {
      heading: 'No investment advice',
      paragraphs: [
        `The information on ${company.name}, including prices, charts, analytics and insights, is general information only. It is not investment, financial, legal or tax advice, and it is not a recommendation to buy, sell or hold any asset.`,
      ],
    },
    {
      heading: 'Risk of cryptocurrency',
      paragraphs: [
        'Cryptocurrency prices are highly volatile and can fall sharply in a short time; you may lose all the money you put in. Only use money you can afford to lose, and consider independent advice.',
        'Cryptocurrencies are not legal tender in most countries and are not covered by deposit-guarantee or investor-compensation schemes.',
      ],
    },
    {
      heading: 'Accuracy of market data',
      paragraphs: [
        'Market data comes from third-party providers and is refreshed about once a minute. It may be delayed or inaccurate. When a provider is unavailable we may show the last known prices or a built-in sample, and test environments show simulated prices.',
      ],
    },
    {
      heading: 'External links',
      paragraphs: [
        'Links to other websites are provided for convenience. We do not control those sites and are not responsible for their content or practices.',
      ],
    },
    {
      heading: 'Regulatory status',
      paragraphs: [
        'The availability of our services depends on your country of residence. It is your responsibility to make sure that using them is lawful where you live.',
      ],
    },
  ],
};
