import type { landing as hu } from '../hu/landing.ts';
import type { Translation } from '../translation.ts';

/** The landing page's texts (SPEC §1): the hero, about us, useful facts and the testimonials. */
export const landing = {
  landingTitle: 'Got a parcel to send? A neighbour is already taking it.',
  landingLead:
    'Community parcel delivery across the whole country: anyone can send a parcel, and anyone can be a runner. Within a city, even in minutes.',
  landingRegister: 'Sign up',
  landingSignIn: 'Sign in',

  landingAboutTitle: 'About us',
  landingAbout:
    "Csomagküldő connects people who want to send a parcel with people who are going that way anyway. No warehouse, no waiting: the runner picks the parcel up from the sender and takes it straight to the receiver – even by public transport. It's cost-effective and fast, and you can follow every step live on the map.",
  landingGetStarted: 'Get started',

  landingUsefulOnTheMap: "When you send a parcel, it appears on the runners' map straight away.",
  landingUsefulTracking: 'Anyone can track a parcel with its parcel ID, no sign-up needed.',
  landingUsefulDelivery:
    'The runner can only deliver the parcel within 15 metres of the address, or with a QR code that you confirm.',
  landingUsefulAnyoneRuns: 'Anyone can become a runner: you can deliver on foot, by bike or by public transport.',
  landingUsefulUnits: 'Give the weight in grams, and the address with its postcode.',

  testimonialsTitle: 'What people say about us',
  testimonialsPrevious: 'Previous',
  testimonialsNext: 'Next',
  testimonialQuote: (quote: string) => `“${quote}”`,
  testimonialPosition: (current: number, total: number) => `${current} / ${total}`,
  testimonialAnnaQuote:
    "I sent my grandmother's birthday parcel in the morning, and she had it by the afternoon. I could see on the map where it was the whole way.",
  testimonialAnnaName: 'Anna Kovács',
  testimonialAnnaRole: 'Sender, Budapest',
  testimonialGergelyQuote:
    'I sent documents to the countryside, cheaper and faster than anywhere else. The QR code hand-over is dead easy.',
  testimonialGergelyName: 'Gergely Szabó',
  testimonialGergelyRole: 'Sender, Szeged',
  testimonialRekaQuote:
    'I carry parcels on the tram on my way to work. I deliver whatever is on my way, and earn a bit from it too.',
  testimonialRekaName: 'Réka Tóth',
  testimonialRekaRole: 'Runner, Budapest',
} as const satisfies Translation<typeof hu>;
