import type { LegalSection } from './components/LegalDocument';

export const TERMS_INTRO =
  'These terms govern your use of PodProfit, an online service that imports your Etsy and Printify orders and calculates the profit on each. By creating an account or using the service you agree to them. If you do not agree, please do not use PodProfit.';

export const TERMS_SECTIONS: LegalSection[] = [
  {
    heading: 'The service',
    blocks: [
      'PodProfit syncs orders from the Etsy shop and Printify account you connect, matches them and shows revenue, costs, fees, net profit and margin in the currency you choose. Features may change as we improve the product.',
      'The term "Etsy" is a trademark of Etsy, Inc. This application uses the Etsy API but is not endorsed or certified by Etsy, Inc. PodProfit is likewise independent of Printify.',
    ],
  },
  {
    heading: 'Your account',
    blocks: [
      [
        'You must be old enough to enter a binding contract and give accurate account information.',
        'Keep your password confidential; you are responsible for activity under your account.',
        'Tell us promptly if you believe your account has been accessed without permission.',
      ],
    ],
  },
  {
    heading: 'Connected services',
    blocks: [
      'When you connect Etsy or Printify you authorise us to read your shop and order data on your behalf. You remain bound by those platforms’ own terms, and you can revoke our access at any time from Connections or from the platform itself. We are not responsible for outages, changes or data errors of third-party services.',
    ],
  },
  {
    heading: 'Fees',
    blocks: [
      'Any fees for paid plans are shown before you subscribe. We will give you at least 30 days’ notice of price changes, and you may cancel before they take effect.',
    ],
  },
  {
    heading: 'Acceptable use',
    blocks: [
      [
        'Do not use PodProfit for data you are not entitled to process or for any unlawful purpose.',
        'Do not probe, overload or try to break the security of the service, or access another user’s data.',
        'Do not resell the service or copy it to build a competing product.',
      ],
    ],
  },
  {
    heading: 'Your data',
    blocks: [
      'You own the data you bring to PodProfit. You grant us only the rights needed to host, process and display it to provide the service. You can export it as CSV and delete it at any time; our Privacy Policy explains how we handle personal data.',
    ],
  },
  {
    heading: 'Figures are estimates',
    blocks: [
      'Profit figures depend on the data Etsy and Printify provide, on exchange rates and, where exact data is missing, on estimated fees, which we label as such. PodProfit is a management tool, not accounting, tax or financial advice; check important figures against your official statements.',
    ],
  },
  {
    heading: 'Availability, suspension and termination',
    blocks: [
      'We aim to keep PodProfit available but do not guarantee uninterrupted service. You may stop using the service and delete your account at any time. We may suspend or close accounts that breach these terms, and we will give notice where reasonably possible.',
    ],
  },
  {
    heading: 'Disclaimer',
    blocks: [
      'Except as expressly stated in these terms, the service is provided "as is" and "as available", without warranties of any kind, to the extent permitted by law.',
    ],
  },
  {
    heading: 'Limitation of liability',
    blocks: [
      'To the fullest extent permitted by law, PodProfit is not liable for indirect or consequential losses, such as lost profits, revenue or data, and our total liability for all claims arising from or related to the service or these terms is capped at the amount you paid us for the service in the last 12 months before the event giving rise to the claim.',
      'Nothing in these terms limits liability that cannot be limited by law, such as liability for fraud or for death or personal injury caused by negligence.',
    ],
  },
  {
    heading: 'Changes to these terms',
    blocks: [
      'We may update these terms. We will change the date at the top of this page and, for material changes, notify you at least 30 days in advance. Continuing to use PodProfit after changes take effect means you accept them.',
    ],
  },
  {
    heading: 'Contact',
    blocks: ['Questions about these terms? Reach us through the contact page.'],
  },
];
