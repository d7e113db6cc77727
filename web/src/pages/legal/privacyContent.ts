import type { LegalSection } from './components/LegalDocument';

export const PRIVACY_INTRO =
  'This policy explains what personal data PodProfit collects when you use our profit-tracking service for Etsy and Printify sellers, why we collect it, how long we keep it and the choices you have. We collect only what we need to run the service, and we never sell your data.';

export const PRIVACY_SECTIONS: LegalSection[] = [
  {
    heading: 'Information we collect',
    blocks: [
      [
        'Account details: your first and last name, email address, display-currency preference and a one-way hash of your password (we never store the password itself).',
        'Data from services you connect: your Etsy shop name and orders (receipt numbers, order dates, items, amounts, fees, refunds and buyer names) and your Printify orders with their production and shipping costs.',
        'Connection credentials: the access tokens Etsy and Printify issue to us, stored encrypted.',
        'Technical data: a session cookie, IP address, browser type and security events such as sign-ins, kept to protect your account.',
        'Messages you send us, for example through the contact page.',
      ],
    ],
  },
  {
    heading: 'How we use your information',
    blocks: [
      [
        'To provide the service: syncing orders, matching Etsy orders to Printify orders, converting currencies and calculating revenue, costs, profit and margin.',
        'To keep the service secure: authenticating you, limiting sign-in attempts and investigating abuse.',
        'To answer support requests and to tell you about important changes to the service.',
        'To meet legal obligations, such as keeping records when the law requires it.',
      ],
      'We do not use your data for advertising, we do not build marketing profiles and we do not sell or rent personal data to anyone.',
    ],
  },
  {
    heading: 'Legal bases',
    blocks: [
      'Where data-protection law such as the GDPR or UK GDPR applies, we process account and order data to perform our contract with you, security data on the basis of our legitimate interest in protecting the service, and records we must keep to comply with legal obligations.',
    ],
  },
  {
    heading: 'Cookies',
    blocks: [
      'We use a single, strictly necessary session cookie to keep you signed in. It is marked HttpOnly and Secure and is not readable by scripts. We use no analytics, advertising or third-party tracking cookies, and the app loads no third-party scripts or fonts.',
    ],
  },
  {
    heading: 'Sharing and service providers',
    blocks: [
      'We share data only as needed to run the service: with our hosting and infrastructure providers under data-processing agreements, with Etsy and Printify when we call their APIs on your behalf, and with authorities when the law requires it. Exchange rates come from the European Central Bank; no personal data is sent to obtain them.',
      'For your buyers’ personal data contained in your orders, you are the controller and we act as your processor, handling it only to provide the service to you.',
    ],
  },
  {
    heading: 'Retention and deletion',
    blocks: [
      'We keep your data while your account is active. You can delete all synced order data at any time from Settings, and you can disconnect Etsy or Printify, which deletes the stored tokens for that service.',
      'When you delete your account, your personal data, including synced orders, matches, tokens and account details, is removed within 30 days of account deletion, including from backups.',
    ],
  },
  {
    heading: 'Security',
    blocks: [
      'All traffic is encrypted in transit. Connection tokens are encrypted at rest with keys kept separately from the database, passwords are hashed with Argon2id, and every query is scoped to your account so other users can never see your data.',
    ],
  },
  {
    heading: 'Your rights',
    blocks: [
      'Depending on where you live, you may have the right to access, correct, export or delete your personal data, to object to or restrict its processing, and to complain to your data-protection authority. You can export your data as CSV and delete it yourself in Settings; for anything else, contact us and we will respond within 30 days.',
    ],
  },
  {
    heading: 'Children',
    blocks: [
      'PodProfit is a business tool and is not intended for anyone under 16. We do not knowingly collect data from children.',
    ],
  },
  {
    heading: 'Changes to this policy',
    blocks: [
      'If we change this policy, we will update the date at the top of this page and, for significant changes, tell you by email or in the app before they take effect.',
    ],
  },
  {
    heading: 'Contact',
    blocks: ['Questions about privacy? Reach us through the contact page and we will get back to you.'],
  },
];
