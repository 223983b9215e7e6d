import type { core as hu } from '../hu/core.ts';
import type { Translation } from '../translation.ts';

/** Texts the server sends and the web shows across areas: sign-in, validation, parcels, the back office. */
export const core = {
  // sign-in (SPEC §5, DESIGN §6)
  emailTooShort: 'not a valid email address',
  passwordTooShort: 'not a valid password',
  wrongCredentials: 'Wrong email address or password.',
  alreadySignedIn: "You're already signed in.",
  signedOut: "You've signed out.",
  signInRequired: 'You need to sign in to do this.',
  forbidden: "You don't have permission to do this.",
  tooManyLoginAttempts: 'Too many failed sign-in attempts. Try again later.',
  tooManyRequests: 'Too many requests. Try again later.',

  // registration and profiles (SPEC §2.4, §2.6)
  useEnglishLetters: 'Use letters of the English alphabet only',
  userNameTaken: 'This username is already taken.',
  emailTaken: 'An account with this email address already exists.',
  profileSaved: 'Changes saved!',
  runnerSaved: 'Saved!',

  // validation
  invalidBody: 'Some details are invalid. Check the highlighted fields.',
  required: 'This field is required.',
  invalidEmail: 'Invalid email address.',
  invalidUserName:
    'A username is 3–32 characters: letters of the English alphabet, digits, full stops, hyphens and underscores.',
  passwordMin: 'The password must be at least 6 characters.',

  // generic
  notFound: 'Not found.',
  badRequestUrl: "Bad request: the address can't be understood.",
  pageNotFound: 'Page not found (404)',
  serverError: 'Something unexpected went wrong. Try again later.',
  // operations (issue 9)
  databaseUnavailable: "The database isn't available right now. Try again in a few seconds.",
  notReady: "This server instance isn't accepting traffic right now.",
  notReadyDatabase: "The database isn't responding.",
  notReadyMigrations: "The database schema isn't up to date.",
  notReadyChangeFeed: 'The live updates channel is down.',
  notReadyDraining: 'The instance is shutting down.',
  crossOrigin: 'The request came from another website, so we refused it.',
  invalidEncoding: 'The request text is not valid UTF-8.',
  invalidQueryText:
    'The search or filter text contains a control character or a wrongly encoded character. Type the text again.',
  invalidText: 'The text contains a control character or a wrongly encoded character.',
  bodyTooLarge: 'The request is too large.',
  unsupportedMediaType: "We don't recognise the request format: send JSON.",
  networkError: "Couldn't reach the server. Check your connection.",
  loading: 'Loading…',

  // parcels (SPEC §2.5–2.8, DESIGN §6)
  parcelNotFound: 'There is no parcel with this ID.',
  parcelIdRequired: 'Enter the parcel ID.',
  parcelTaken: 'Another runner has already picked up this parcel.',
  parcelAlreadyDelivered: 'This parcel has already been delivered.',
  parcelNotWaiting: 'This parcel is no longer waiting for a runner.',
  parcelNotInTransit: 'This parcel is not in transit.',
  notYourParcel: "You're not the runner carrying this parcel.",
  parcelCancelled: "You've cancelled sending the parcel.",
  cancelNotWaiting: 'A runner has already picked up the parcel: you can no longer cancel sending it.',
  destinationImprecise: "The receiver's exact location isn't known — hand over by QR code",
  recipientPhoneInvalid: 'A phone number is 6–20 characters: digits, spaces, +, -, ( and ).',
  invalidPrecision: "A point's precision can be door, street, settlement or manual.",
  handoverInvalid: 'The QR code is invalid or has expired.',
  parcelAlreadyHandedOver: 'This parcel has already been handed over.',
  copyHandoverLink: 'Copy link',
  handoverLinkCopied: 'Link copied to the clipboard.',
  copyFailed: "Couldn't copy to the clipboard.",
  shareHandoverLink: 'Share',
  shareFailed: "Couldn't share the link.",
  handoverShareTitle: 'Parcel hand-over',
  handoverShareText: 'Open the link and approve taking over the parcel.',
  geolocationUnavailable: 'Location is not available.',
  parcelSent: 'Parcel sent!',
  parcelPickedUp: 'Parcel picked up!',
  parcelDelivered: 'Parcel delivered!',
  geocodeFailed: "We can't find this address on the map. Check the address, or tap the exact spot on the map.",
  tooFar: (distanceMetres: number) => `You're too far away: ${distanceMetres} metres`,

  // sending, profiles and live updates
  weightInvalid: 'The weight must be a positive whole number (grams).',
  weightTooHeavy: (maxGrams: number) => `The weight can be at most ${maxGrams} grams.`,
  weightUnreadable: 'Enter the weight as a number, in grams or kilograms (e.g. 750 g or 1.5 kg).',
  weightNeedsUnit: 'With a decimal weight, write the unit too (e.g. 1.5 kg).',
  weightNotWholeGrams: (nearestGrams: number) => `Enter the weight to the nearest gram (e.g. ${nearestGrams} g).`,
  weightPlaceholder: 'e.g. 750 g or 1.5 kg',
  weightReadAs: (weight: string) => `= ${weight}`,
  invalidCoordinates: 'Invalid coordinates.',
  invalidStatus: 'The status can be waiting, in transit (in_transit) or delivered.',
  invalidLimit: (max: number) => `The limit must be a whole number between 1 and ${max}.`,
  invalidCursor: 'Invalid paging cursor. Start the list again from the beginning.',
  accountNotFound: 'There is no such user.',
  senderUserRequired: 'Enter the sending user.',
  senderUserNotUser: 'The sender can only be a user (not a runner or an admin).',
  senderUserNotSelf: 'You can only send parcels in your own name.',
  emailReadOnlyForRunner: "A runner's email address can't be changed.",
  invalidTopics: 'Invalid topic. Possible topics: parcel:<parcel ID>, parcels, me (separated by commas).',
  tooManyStreams: 'Too many open live connections. Close some tabs.',

  // runners: position and delivery
  invalidAccuracy: (maxMetres: number) => `The accuracy must be a number between 0 and ${maxMetres} metres.`,
  positionRequired: 'To deliver, we need your position (lat, lng, accuracy).',
  invalidNear: 'The place (near) must be latitude,longitude, for example 47.4979,19.0402.',
  // the runner's waiting list (SPEC §2.7)
  waitingEmpty: 'No parcels are waiting for a runner right now.',
  waitingEmptyInSettlement: 'No parcels are waiting for a runner in this town right now.',
  waitingSortLabel: 'Sort by',
  waitingSortNearest: 'Nearest first',
  waitingSortOldest: 'Longest waiting first',
  waitingSettlementLabel: 'Town',
  waitingPositionPending:
    'We need your location for the distances; until then, the parcel that has waited longest comes first.',

  // back office: runners, parcels, admin map
  searchTooLong: 'The search can be at most 100 characters.',
  invalidRole: 'The role can be user, runner or superadmin.',
  runnerNotFound: 'There is no such runner.',
  userNameReadOnly: "The username can't be changed.",
  runnerCarriesParcels: (parcelIds: string) =>
    `The runner can't be deleted while carrying parcels in transit: ${parcelIds}. Deliver or reassign these first.`,
  parcelNeedsRunner: 'Only a parcel with a runner can be in transit. Assign the parcel to a runner.',
  parcelChangedMeanwhile: 'Someone changed the parcel in the meantime. Reload and try again.',
  deliveredNeedsRunner: 'Only a parcel carried by a runner can be marked delivered. Assign it to a runner first.',
  statusChangeNeedsReason: 'Give a reason for this status change.',
  deleteInTransitNeedsReason: (runner: string) =>
    `The parcel is in transit with runner ${runner}: give a reason to delete it.`,
  reasonInvalid: 'The reason must be 3–500 characters.',
  invalidBounds: 'Invalid map area: south must be less than north, and west less than east.',
  invalidZoom: (max: number) => `The zoom must be a whole number between 0 and ${max}.`,
  // back office screens (SPEC §2.8)
  runnerRegistered: 'Runner signed up!',
  runnerDeleted: 'Runner deleted.',
  parcelCreated: 'Parcel created!',
  parcelSaved: 'Saved!',
  parcelDeleted: 'Parcel deleted.',
  parcelAssigned: 'Parcel assigned!',
  confirmRunnerDelete: (userName: string) => `Are you sure you want to delete the runner with username ${userName}?`,
  confirmParcelDelete: (parcelId: string) => `Are you sure you want to delete the parcel with ID ${parcelId}?`,
  confirmCarriedParcelDelete: (parcelId: string, runner: string) =>
    `Are you sure you want to delete the parcel with ID ${parcelId}? It is in transit with runner ${runner}: write down why you're deleting it. The runner will see straight away that the parcel has left their list.`,
  confirmAssign: (parcelId: string, runner: string) =>
    `Are you sure you want to assign the parcel with ID ${parcelId} to runner ${runner}?`,
  waitingForRunner: 'Waiting for a runner',
  incompleteBounds: 'The map area needs all four edges (south, west, north, east), or none of them.',
  metricsUnauthorized: 'Missing or wrong access key.',
} as const satisfies Translation<typeof hu>;
