import type { attempts as hu } from '../hu/attempts.ts';
import type { Translation } from '../translation.ts';

/**
 * When a delivery does not go to plan (issue 28): failed attempts, the receiver's new time,
 * returning to the sender and the honest 'Give it up' — server refusals and screens.
 */
export const attempts = {
  // states
  stateAttempted: 'failed delivery',
  stateReturning: 'being returned',
  stateReturned: 'returned',
  stateWithNeighbour: 'with a neighbour',

  // reasons
  attemptReasonNobodyHome: 'Nobody was home',
  attemptReasonWrongAddress: 'Wrong address or address not found',
  attemptReasonRefused: 'The receiver refused it',
  attemptReasonUnsafeAccess: 'Unsafe or inaccessible',
  attemptReasonOther: 'Other',

  // refusals
  attemptReasonInvalid: 'Choose why the delivery failed.',
  attemptNoteRequired: 'Briefly describe what happened (3–500 characters).',
  attemptNoteTooLong: 'The note can be at most 500 characters.',
  attemptTooFar: (metres: number) =>
    `You're too far from the address (${metres} m): you can only record a failed delivery on the spot, within 15 metres.`,
  attemptNotFound: 'No such delivery attempt.',
  redeliveryNotNow: 'You can only ask for a new time after a failed delivery, before the parcel is returned.',
  redeliveryNotAllowed: "Only the parcel's sender or receiver can ask for a new time.",
  redeliveryTimeInvalid: 'Enter a valid time.',
  redeliveryWindowOrder: 'The end of the time window must be later than its start.',
  redeliveryWindowInPast: 'The time window has already passed: enter a later time.',
  redeliveryWindowTooShort: (minutes: number) => `The time window must be at least ${minutes} min.`,
  redeliveryWindowTooLong: (hours: number) =>
    `The time window can be at most ${hours} ${hours === 1 ? 'hour' : 'hours'}.`,
  redeliveryTooFarAhead: (days: number) =>
    `You can ask for a time at most ${days} ${days === 1 ? 'day' : 'days'} ahead.`,
  alreadyReturning: 'The parcel is already on its way back to the sender.',
  returnedParcel: 'The parcel has already been returned to the sender.',
  lostParcel: 'The parcel has been declared lost.',
  statusReachedOnlyByItsFlow:
    'This status can only be reached through its own process (failed delivery, return to sender).',
  backOfficeCannotLeaveReturned: "The status of a parcel returned to its sender can't be changed.",

  // the runner's screens
  attemptButton: "Couldn't deliver",
  attemptTitle: 'Record a failed delivery',
  attemptReasonLabel: 'What happened?',
  attemptNoteLabel: 'Note',
  attemptPhotoLabel: 'Photo of the door (optional)',
  attemptSubmit: 'Record',
  attemptLocating: 'Finding your location…',
  attemptRecorded: "We've recorded the failed delivery and notified the sender and the receiver.",
  attemptRecordedReturning:
    "We've recorded the failed delivery. The parcel is going back to the sender: take it back to the sender's address.",
  attemptCount: (count: number) => `Failed deliveries: ${count}`,
  redeliveryWindowForRunner: (window: string) => `The receiver has asked for a new time: ${window}`,
  returningTo: (address: string) => `Return to sender: ${address}`,
  giveUpTitle: 'What would you like to do with the parcel?',
  giveUpHint:
    'The parcel stays with you until someone takes it over: pass it on to another runner, leave it at a drop point, or take it back to the sender.',
  giveUpRelay: "I'll pass it on to another runner",
  giveUpReturn: "I'll take it back to the sender",
  giveUpDropPoint: "I'll leave it at a drop point",
  giveUpReturnReasonLabel: 'Why are you taking it back?',
  giveUpReturnConfirm: 'Start the return',
  returnStarted:
    "The parcel is going back to the sender. Take it back to the sender's address, or pass it on to another runner.",

  // the sender's and receiver's screens
  attemptsTitle: 'Delivery attempts',
  attemptLine: (number: number, reason: string) => `Attempt ${number}: ${reason}`,
  attemptPhotoAlt: (number: number) => `Photo from delivery attempt ${number}`,
  attemptWhatNow: 'The delivery failed. When should the runner try again?',
  attemptsLeft: (left: number) =>
    left === 1
      ? 'If the next attempt fails too, the parcel goes back to the sender.'
      : `After ${left} more failed attempts, the parcel goes back to the sender.`,
  redeliveryFromLabel: 'From',
  redeliveryUntilLabel: 'Until',
  redeliverySubmit: 'Ask for a new time',
  redeliveryRequested: "We've sent the new time to the runner.",
  redeliveryWindow: (window: string) => `New time requested: ${window}`,
  parcelReturningNotice: 'The parcel is on its way back to the sender.',
  parcelReturnedNotice: 'The parcel has been returned to the sender.',

  // the handover PIN
  handoverPinFormat: (length: number) => `The code has ${length} ${length === 1 ? 'digit' : 'digits'}.`,
  handoverPinWrong: (left: number) => `Wrong code. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
  handoverPinLocked:
    'Too many wrong codes: hand the parcel over with the QR code for now, or try the code again in an hour.',
  handoverPinNotYours: 'Only the person the parcel is on its way to can see the collection code.',
  handoverPinNotNow: 'Only a parcel that is on its way has a collection code.',
  handoverPinStale: 'The parcel has changed hands in the meantime: ask for the new collection code.',

  // the neighbour
  neighbourNameInvalid: "Enter the neighbour's name (2–100 characters).",
  neighbourDoorInvalid: 'Enter which flat or door (1–60 characters).',
  neighbourConfirmMismatch: 'The neighbour types their own name to confirm, exactly as it appears above.',
  neighbourNotForReturn: "A parcel that is being returned can't be left with a neighbour.",
  notWithNeighbour: "The parcel isn't with a neighbour.",
  neighbourButton: "I'll leave it with a neighbour",
  neighbourTitle: 'Hand over to a neighbour',
  neighbourNameLabel: "Neighbour's name",
  neighbourDoorLabel: 'Floor, door',
  neighbourConfirmLabel: 'The neighbour types their name to confirm',
  neighbourSubmit: "I've handed it to the neighbour",
  neighbourPinWritten: "I've written down the code",
  neighbourPinForSlip: (pin: string) =>
    `Collection code for the receiver: ${pin}. Write it on the notice card: the receiver uses it to collect the parcel from the neighbour.`,
  neighbourNotice: (name: string, door: string) => `The parcel is with a neighbour: ${name} (${door}).`,
  neighbourWishForRunner: (name: string, door: string) =>
    `The receiver asks you to leave it with a neighbour: ${name} (${door}).`,
  neighbourWishTitle: 'Or leave it with a neighbour',
  neighbourWishSubmit: 'Please leave it with the neighbour',
  neighbourWishSent: "We've sent the request to the runner.",
  collectTitle: 'Collect from a neighbour',
  collectHint: 'Enter the code the runner gave the neighbour on the notice card.',
  collectPinLabel: 'Collection code',
  collectSubmit: "I've got it",
  collected: "You've collected the parcel. Thank you!",

  // incidents
  stateLost: 'lost',
  incidentKindDamaged: 'Damaged',
  incidentKindLost: 'Lost',
  incidentKindInvalid: 'Choose what happened to the parcel.',
  incidentDescriptionInvalid: 'Describe what happened (3–1000 characters).',
  incidentStatusInvalid: 'The status can only be open or closed.',
  incidentNotFound: 'No such report.',
  incidentOpen: "There's already an open report about this parcel.",
  incidentResolved: 'This report has already been closed.',
  incidentDecisionInvalid: 'Choose a decision: continue, return to sender or declare lost.',
  incidentDecisionContinue: 'Delivery continues',
  incidentDecisionReturn: 'Return to sender',
  incidentDecisionWriteOff: 'Declared lost',
  incidentReturnNotPossible:
    "Only a parcel that is with a runner or at a drop point, and isn't already being returned, can be returned to sender.",
  incidentNotAtDropPoint:
    "This parcel isn't waiting at this drop point: you can only report a problem with a parcel that's here.",
  incidentWriteOffNotPossible: "A parcel that has reached its destination can't be declared lost.",
  incidentPhotosFull: (max: number) => `A report can have at most ${max} ${max === 1 ? 'photo' : 'photos'}.`,
  incidentNotYours: 'You can only add photos to your own report.',

  // drop points
  stateAtDropPoint: 'at a drop point',
  dropPointKindShop: 'Shop',
  dropPointKindLocker: 'Parcel locker',
  dropPointKindOffice: 'Office',
  dropPointNameInvalid: "Enter the drop point's name (2–100 characters).",
  dropPointKindInvalid: 'Choose the type of drop point.',
  dropPointOutsideHungary: 'The drop point must be in Hungary.',
  openingHoursInvalid:
    'Enter the opening hours like this, with Hungarian day letters: “H-P 8:00-18:00; Szo 9:00-12:00” (days: H Mon, K Tue, Sze Wed, Cs Thu, P Fri, Szo Sat, V Sun).',
  dropPointNotFound: 'No such drop point.',
  dropPointStaffUnknown: (userName: string) => `No such user: ${userName}.`,
  dropPointClosed: 'The drop point is closed now: parcels can only be handed out during opening hours.',
  dropPointNotStaff: "Only the drop point's staff can do this.",
  dropPointNotHere: "The parcel isn't at this drop point.",
  dropPointNeedsCode: "Hand this parcel over to the drop point's staff: ask them for the drop-off code.",
  dropPointNotNow: "You can only choose a drop point for a parcel that is on its way and isn't being returned.",

  // the handover PIN and drop points on the screens
  handoverPinTitle: 'Collection code',
  handoverPinHint: "Tell this code to the runner or the drop point's staff when you receive the parcel.",
  pinHandoverLabel: 'Collection code',
  pinHandoverSubmit: 'Hand over with code',
  pinHandoverDone: "You've handed over the parcel.",
  droppedOffDone: "You've left the parcel at the drop point.",
  dropPointChoiceTitle: 'Or collect it from a drop point',
  dropPointChoiceLabel: 'Drop point',
  dropPointChoiceSubmit: 'Send it here',
  dropPointChosen:
    'The parcel is going to the drop point. Once it arrives, you can collect it with the collection code.',
  dropPointOption: (name: string, address: string, hours: string) => `${name} — ${address} (${hours})`,
  dropPointDestination: (name: string, address: string) => `To a drop point: ${name}, ${address}`,
  dropPointWaitingNotice:
    'The parcel is waiting at a drop point: you can collect it with the collection code during opening hours.',
  dropPointPageTitle: 'Drop point',
  dropPointNoneStaffed: "You aren't staff at any drop point.",
  dropPointComing: 'Parcels on their way',
  dropPointWaiting: 'Parcels waiting here',
  dropPointEmpty: 'No parcels.',
  dropOffPinText: (pin: string) => `Drop-off code for the runner: ${pin}`,
  dropPointSince: (time: string) => `Here since ${time}`,
  dropPointForSender: 'Returned: for the sender to collect',
  dropPointOpenNow: 'Open now',
  dropPointClosedNow: 'Closed now',
  releaseLabel: "Collector's code",
  releaseSubmit: 'Hand out',
  released: "You've handed out the parcel.",

  // the back office's drop points
  dropPointsTitle: 'Drop points',
  dropPointsMenu: 'Drop points',
  dropPointsEmpty: 'No drop points yet.',
  dropPointNew: 'New drop point',
  dropPointEdit: 'Edit',
  dropPointFormTitle: 'Drop point details',
  dropPointNameLabel: 'Name',
  dropPointKindLabel: 'Type',
  dropPointAddressLabel: 'Address',
  dropPointLatLabel: 'Latitude (e.g. 47.4979)',
  dropPointLngLabel: 'Longitude (e.g. 19.0402)',
  dropPointHoursLabel: 'Opening hours',
  dropPointStaffLabel: 'Staff (usernames, separated by commas)',
  dropPointActiveLabel: 'Active: shown and selectable',
  dropPointInactive: 'inactive',
  dropPointSave: 'Save',
  dropPointSaved: 'Drop point saved.',

  // incidents on the screens
  incidentsTitle: 'Incidents',
  incidentsMenu: 'Incidents',
  reportsMoreLabel: 'More cases',
  incidentsEmpty: 'No reports.',
  incidentTitle: (id: number | string) => `Incident ${id}`,
  incidentReporter: 'Reported by',
  incidentDecided: (decision: string, by: string, at: string) => `Decision: ${decision} (${by}, ${at})`,
  incidentDecide: 'Decide',
  incidentNoteLabel: 'Reason for the decision',
  incidentDecidedToast: (decision: string) => `Decision recorded: ${decision}.`,
  incidentPhotos: 'Photos',
  incidentPhotoAlt: (number: number) => `Photo ${number} of the report`,
  incidentReportButton: 'Report a problem',
  incidentReportTitle: 'Report a problem',
  incidentKindLabel: 'What happened to the parcel?',
  incidentDescriptionLabel: 'Description',
  incidentPhotosLabel: 'Photos (optional, up to 5)',
  incidentReportSubmit: 'Report',
  incidentReported: 'Problem reported: support will decide what happens to the parcel.',

  // push notifications
  pushKindSentAttempted: "A parcel I sent couldn't be delivered",
  pushKindIncomingAttempted: "A parcel for me couldn't be delivered",
  pushKindSentReturning: 'A parcel I sent is on its way back',
  pushKindSentReturned: 'A parcel I sent has come back',
  pushTitleAttempted: 'Delivery failed',
  pushTitleSentReturning: 'Your parcel is on its way back',
  pushTitleSentReturned: 'Your parcel has come back',
  pushStatusSentAttempted: (parcelId: string) => `Parcel ${parcelId} couldn't be delivered. See what to do next.`,
  pushStatusIncomingAttempted: (parcelId: string) =>
    `The parcel addressed to you (${parcelId}) couldn't be delivered. Ask for a new time!`,
  pushStatusSentReturning: (parcelId: string) => `Parcel ${parcelId} is on its way back to you.`,
  pushStatusSentReturned: (parcelId: string) => `Parcel ${parcelId} has come back to you.`,
  pushKindWithNeighbour: 'A parcel for me was left with a neighbour',
  pushTitleWithNeighbour: 'Your parcel is with a neighbour',
  pushStatusWithNeighbour: (parcelId: string) => `Parcel ${parcelId} has been left with a neighbour.`,
  pushKindAtDropPoint: 'A parcel for me is waiting at a drop point',
  pushTitleAtDropPoint: 'Your parcel is waiting at a drop point',
  pushStatusAtDropPoint: (parcelId: string) =>
    `Parcel ${parcelId} is waiting for you at a drop point. You'll find the collection code on the tracking page.`,
  pushKindSentUncollected: "A parcel I sent wasn't collected from the drop point",
  pushTitleSentUncollected: "Your parcel wasn't collected",
  pushStatusSentUncollected: (parcelId: string) =>
    `Parcel ${parcelId} wasn't collected from the drop point: it's coming back to you. You can also collect it there.`,
  pushKindSentLost: 'A parcel I sent was lost',
  pushKindIncomingLost: 'A parcel for me was lost',
  pushTitleLost: 'Parcel lost',
  pushStatusSentLost: (parcelId: string) =>
    `Support has declared parcel ${parcelId} lost. Get in touch if you have any questions.`,
  pushStatusIncomingLost: (parcelId: string) => `Support has declared the parcel addressed to you (${parcelId}) lost.`,
} as const satisfies Translation<typeof hu>;
