import type { personalData as hu } from '../hu/personal-data.ts';
import type { Translation } from '../translation.ts';

/** A person's own data (issue 29): to download it, and to erase the account. */
export const personalData = {
  // 'Download my data' on the profile page
  myDataTitle: 'My data',
  myDataHint:
    'Everything we store about you, in one JSON file: your account, your parcels, ratings, your devices and the emails we sent you.',
  myDataDownload: 'Download my data',
  // 'Delete account'
  eraseTitle: 'Delete account',
  eraseHint:
    "Your account and your personal data are deleted for good; the parcels' journeys are kept, anonymised. This can't be undone.",
  erasePasswordLabel: 'Your password, to confirm',
  eraseSubmit: 'Delete my account for good',
  eraseDone: 'We deleted your account. Thank you for being with us.',
  wrongPassword: 'Wrong password.',
  eraseBlocked:
    "Your account can't be deleted while any of your parcels is on its way (as sender or as runner). Try again once they've all arrived.",
  erasedName: 'Deleted user',
  erasedAddress: '(deleted address)',
} as const satisfies Translation<typeof hu>;
