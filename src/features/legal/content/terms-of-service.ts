import { company } from '@/config/company';
import type { LegalDocument } from './legal-document';

export const termsOfService: LegalDocument = {
  title: 'Terms of Service',
  updated: '2026-11-01',
  summary: `These terms govern your use of ${company.name}: the website, the wallet and the services we offer through them. By creating an account or using the site you agree to them.`,
  sections: [
    {
      heading: 'Who we are',
      paragraphs: [
        `${company.name} is operated by ${company.legalName}, with offices in Canada, the United Kingdom, the Netherlands and Switzerland. "We", "us" and "our" refer to ${company.legalName}; "you" refers to the person using the service.`,
      ],
    },
    {
      heading: 'Your account',
      paragraphs: [
        'You must be at least 18 years old and able to enter into a binding contract to open an account. The details you give us must be accurate and kept up to date.',
        'You are responsible for keeping your password secret and for everything done with your account. Tell us at once if you believe someone else has used it.',
      ],
    },
    {
      heading: 'Your wallet and balance',
      paragraphs: [
        'Your account holds a balance in US dollars. Deposits are credited once we have confirmed them; until then they are shown as pending.',
        'Your available balance is your balance less any withdrawal you have requested that is still open. You cannot request purchases or withdrawals above your available balance.',
      ],
    },
    {
      heading: 'Buying cryptocurrency',
      paragraphs: [
        'A buy request is an offer to buy the chosen cryptocurrency for the amount in US dollars that you enter. It is reviewed by our team and becomes binding only when approved; we may reject a request without giving reasons.',
        'Estimates shown in the app use the market price at the moment you look at them. The final quantity depends on the price when your request is approved.',
        'Each request must respect the minimum and maximum transaction amounts shown in the app. We may change these limits at any time; the limits in force when you submit a request apply to it.',
      ],
    },
    {
      heading: 'Withdrawals',
      paragraphs: [
        'You may ask to withdraw funds by bank transfer, to a card or to a cryptocurrency wallet. Withdrawal requests are reviewed before they are paid. Check the details you enter carefully: payments sent to details you gave us cannot always be recovered.',
      ],
    },
    {
      heading: 'Acceptable use',
      paragraphs: [
        'You must not use the service for any unlawful purpose, including money laundering, fraud or financing terrorism, nor try to gain unauthorised access to it, disrupt it, or copy its data by automated means.',
        'We may suspend or close an account that breaks these terms, and we will cooperate with the authorities where the law requires it.',
      ],
    },
    {
      heading: 'Market data',
      paragraphs: [
        'Prices and other market data come from third-party providers and may be delayed, incomplete or, in test environments, simulated. They are information, not an offer to trade at that price.',
      ],
    },
    {
      heading: 'Liability',
      paragraphs: [
        'We provide the service with reasonable care and skill, but we do not promise that it will always be available or free of errors. To the extent the law allows, we are not liable for indirect losses, loss of profit or losses caused by price movements.',
        'Nothing in these terms limits any liability that cannot be limited by law.',
      ],
    },
    {
      heading: 'Changes to these terms',
      paragraphs: [
        'We may update these terms. We will tell you about material changes before they take effect; if you keep using the service after that, the new terms apply.',
      ],
    },
  ],
};
