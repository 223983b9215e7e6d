import type { shell as hu } from '../hu/shell.ts';
import type { Translation } from '../translation.ts';

/**
 * The web's shared texts: the shell (header, menus, footer, status pages), the shared components
 * (form fields, parcel cards and details), map labels and the browser's position requests.
 */
export const shell = {
  // header and footer (SPEC §1)
  appName: 'Csomagküldő',
  homeLinkLabel: 'Csomagküldő – home',
  mainMenuLabel: 'Main menu',
  menuButtonLabel: 'Menu',
  signOut: 'Sign out',
  skipToContent: 'Skip to content',
  // the language switch (issue 30): its button shows the other language's own name
  languageSwitchHint: 'Language of the page',
  /** The switch, where neither a cookie nor local storage may be kept: nothing changes. */
  languageNotKept: 'This browser does not let us remember the language (cookies and local storage are blocked).',
  languageLabel: 'Language',
  footerPrivacy: 'Privacy notice',
  footerContact: 'Contact',
  footerImprint: 'Legal notice',
  copyright: (year: number) => `© ${year} Csomagküldő`,

  // the menus (SPEC §2.2), in their order
  menuHome: 'Home',
  menuLogin: 'Sign in',
  menuRegister: 'Sign up',
  menuTracking: 'Parcel tracking',
  menuOverview: 'Overview',
  menuWaitingParcels: 'Parcels waiting for a runner',
  menuInProgressParcels: 'Parcels in progress',
  menuMap: 'Map',
  menuProfile: 'My profile',
  menuSendParcel: 'Send a parcel',
  menuSentParcels: 'Sent parcels',
  menuIncomingParcels: 'Parcels for me',
  menuRegisterRunner: 'Register a runner',
  menuRunners: 'Runners',
  menuCreateParcel: 'Create a parcel',
  menuParcels: 'Parcels',
  menuAssign: 'Assign to a runner',

  // status pages
  pageNotFoundText: "The page you're looking for doesn't exist or has moved.",
  errorPageTitle: 'Something went wrong',
  backToHome: 'Back to the home page',

  // account forms (components/account-form.tsx, profile-form.tsx, contact-fields.tsx)
  nameLabel: 'Name',
  userNameLabel: 'Username',
  emailLabel: 'Email',
  passwordLabel: 'Password',
  phoneNumberLabel: 'Phone number',
  addressLabel: 'Address',
  newPasswordPlaceholder: 'New password (if you want to change it)',
  saveButton: 'Save',
  cancelButton: 'Cancel',

  // a parcel's fields, card and details, wherever a parcel is shown
  parcelIdLabel: 'ID',
  categoryLabel: 'Category',
  weightLabel: 'Weight',
  weightGramsLabel: 'Weight (g)',
  senderLabel: 'Sender',
  runnerLabel: 'Runner',
  statusLabel: 'Status',
  categoryDocuments: 'Documents',
  categoryBooks: 'Books',
  categoryClothes: 'Clothes',
  categoryFood: 'Food',
  categoryElectronics: 'Electronics',
  categoryGift: 'Gift',
  categoryFragile: 'Fragile',
  parcelCardLabel: (parcelId: string) => `Parcel ${parcelId}`,
  parcelCardPeople: (senderUser: string, runner: string) => `Sender: ${senderUser} · Runner: ${runner}`,
  parcelCardSentAt: (time: string) => `Sent: ${time}`,
  loadMore: 'Load more',
  usefulInfoTitle: 'Good to know',

  // map markers' titles (and alt texts) and maps' labels
  mapPickupPoint: 'Pickup point',
  mapDestinationPoint: 'Delivery point',
  mapBothPointsLabel: 'The pickup and delivery points',
  mapYourRunner: 'Your runner',
  mapZoomIn: 'Zoom in',
  mapZoomOut: 'Zoom out',
  mapYou: "That's you",
  mapAvailableParcel: 'Available',
  mapParcelDestination: 'Destination',

  // why the browser gave no position (lib/geolocation.ts), after geolocationUnavailable
  geolocationDenied: 'Allow location access in your browser.',
  geolocationPositionUnknown: "Your device can't determine its location right now.",
  geolocationTimedOut: 'Finding your location took too long.',
} as const satisfies Translation<typeof hu>;
