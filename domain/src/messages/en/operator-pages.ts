import type { operatorPages as hu } from '../hu/operator-pages.ts';
import type { Translation } from '../translation.ts';

/**
 * The operator's pages (issue 29): what a page says until the operator publishes it, and the
 * example texts the demo data ships (an operator replaces them with their own).
 */
export const operatorPages = {
  operatorPageNotPublished: "The operator hasn't published this page yet. If you have a question, write to support.",
  operatorPageLoadFailed: "The page couldn't be loaded right now. Try again later.",
  demoPrivacyPage: `# Privacy notice (sample)

*This is a sample that comes with the demo data. The operator replaces it with their own notice.*

## Who we are

Csomagküldő is a community parcel-delivery service. Data controller: **Minta Üzemeltető Kft.**, 1052 Budapest, Minta utca 1.

## What data we process

- account data: name, username, email address, phone number, address;
- parcel data: pickup and delivery address, the parcel's journey and hand-overs;
- runners' location while they are carrying a parcel.

## Your rights

You can ask for a copy of your data and for your account to be deleted. After deletion, the custody chain stays verifiable, but your name and contact details no longer appear anywhere.
`,
  demoContactPage: `# Contact (sample)

*This is a sample that comes with the demo data.*

- Email: ugyfelszolgalat@csomagkuldo.example
- Phone: +36 1 234 5678
- Opening hours: weekdays 9:00–17:00
`,
  demoImprintPage: `# Imprint (sample)

*This is a sample that comes with the demo data.*

- Operator: Minta Üzemeltető Kft.
- Registered office: 1052 Budapest, Minta utca 1.
- Company registration number: 01-09-000000
- Hosting provider: self-hosted
`,
} as const satisfies Translation<typeof hu>;
