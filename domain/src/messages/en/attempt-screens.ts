import type { attemptScreens as hu } from '../hu/attempt-screens.ts';
import type { Translation } from '../translation.ts';

/**
 * When a delivery does not go to plan (issue 28), the web's own words beside attempts.ts's: the
 * custody chain's new rows, the redelivery window as read, the runner's card and the return.
 */
export const attemptScreens = {
  // the back office's custody chain
  custodyKindAttempted: 'Failed delivery',
  custodyKindReturnStarted: 'Return started',
  custodyKindReturned: 'Returned to sender',
  custodyHowSenderQr: 'the sender, with a QR code',
  // the custody kinds of the slices after it (PIN hand-over, neighbour, loss)
  custodyNeighbour: 'neighbour',
  custodyKindHandedOverPin: 'Hand-over with collection code',
  custodyKindLeftWithNeighbour: 'Left with a neighbour',
  custodyKindCollected: 'Collected from the neighbour',
  custodyKindLost: 'Declared lost',
  custodyHowReceiverPin: 'the receiver, with the collection code',
  custodyHowSenderPin: 'the sender, with the collection code',
  custodyHowNeighbourName: 'the neighbour, by name',
  custodyDropPoint: 'drop point',
  custodyKindDroppedOff: 'Delivery to a drop point',
  custodyHowDropPointPin: "the drop point's code",
  custodyHowDeadline: 'the collection deadline expiring',

  // the runner's card
  attemptPhotoPreviewAlt: 'Preview of the photo of the door',
  attemptPhotoFailed: (reason: string) => `We recorded the failed delivery, but couldn't save the photo: ${reason}`,
  parcelReturnedToSender: 'You took the parcel back to the sender.',
  qrShowToSender: (parcelId: string) =>
    `Show this to the sender: they scan it with their phone to confirm they got it back. Parcel: ${parcelId}`,
  returnDestinationImprecise: "The sender's exact location isn't known — hand it over with a QR code",
  attemptPhotoRemove: 'Discard photo',

  // the sender's and receiver's screens
  redeliveryWindowText: (from: string, until: string) => `${from} – ${until}`,
  attemptAt: (time: string) => `Time: ${time}`,
  attemptNoteText: (note: string) => `Note: ${note}`,
  attemptsLoadFailed: "Couldn't load the delivery attempts.",
} as const satisfies Translation<typeof hu>;
