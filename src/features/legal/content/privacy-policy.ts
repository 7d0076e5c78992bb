import { company } from '@/config/company';
import type { LegalDocument } from './legal-document';

export const privacyPolicy: LegalDocument = {
  title: 'Privacy Policy',
  updated: '2026-11-01',
  summary: `This policy explains what personal data ${company.legalName} collects when you use ${company.name}, why, how long we keep it and the rights you have over it.`,
  sections: [
    {
      heading: 'What we collect',
      paragraphs: [
        'Account data: your full name, e-mail address and a hash of your password (never the password itself), and the date you registered.',
        'Financial data: your balance, transactions, buy requests and withdrawal requests. Withdrawal details such as bank account or card numbers are encrypted before they are stored and can be read only by authorised staff processing your request.',
        'Technical data: the pages you request, your browser type and IP address, kept in our server logs to keep the service secure.',
      ],
    },
    {
      heading: 'Why we use it',
      paragraphs: [
        'To provide the service you signed up for: running your account, processing your requests and telling you about them.',
        'To meet our legal obligations, including record-keeping and the prevention of fraud and money laundering.',
        'To keep the service secure and working, for example by limiting repeated sign-in attempts.',
      ],
    },
    {
      heading: 'Who we share it with',
      paragraphs: [
        'We do not sell your personal data. We share it only with the providers that host and operate the service for us, under contracts that require them to protect it, and with authorities where the law requires.',
        'Market prices are fetched by our servers, so the market-data provider never receives your personal data.',
      ],
    },
    {
      heading: 'Cookies and local storage',
      paragraphs: [
        'We use your browser’s storage only for what the service needs: keeping you signed in and remembering that you have seen a notice during the current session. We do not use advertising or tracking cookies.',
      ],
    },
    {
      heading: 'How long we keep it',
      paragraphs: [
        'We keep account and transaction records for as long as your account is open and afterwards for as long as financial regulations require, usually five to seven years. Server logs are deleted after 90 days.',
      ],
    },
    {
      heading: 'Your rights',
      paragraphs: [
        'Depending on where you live, you may ask for a copy of your data, have it corrected or deleted, object to or restrict its use, and receive it in a portable format. You may also complain to your data-protection authority.',
        'To exercise these rights, contact us using the details below. We answer within one month.',
      ],
    },
    {
      heading: 'Security',
      paragraphs: [
        'Access to your data is limited by role and checked by the database itself. Connections are encrypted, passwords are hashed and withdrawal details are encrypted with keys that the database does not hold.',
      ],
    },
  ],
};
