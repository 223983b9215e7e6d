import type { dropPointReturns as hu } from '../hu/drop-point-returns.ts';
import type { Translation } from '../translation.ts';

/**
 * Drop points in the runner's and sender's screens (issue 28): a parcel not collected in time goes
 * back to its sender's door with a runner who takes it there with the code its staff read out; the
 * runner's map shows the points; a sender may send to one instead of the door.
 */
export const dropPointReturns = {
  dropPointReturnsTitle: 'From a drop point back to the sender',
  dropPointReturnsHint:
    "These parcels weren't collected in time: take them from the drop point to the sender's address. The drop point's staff will tell you the code.",
  dropPointReturnFrom: (name: string, address: string) => `Pickup: ${name}, ${address}`,
  dropPointReturnTo: (address: string) => `Destination: the sender's address, ${address}`,
  dropPointReturnPinLabel: 'Code from the drop point',
  dropPointReturnSubmit: "I'll take it",
  dropPointReturnTaken: 'This parcel has already been taken from the drop point.',
  dropPointReturnNotWaiting: "This parcel isn't waiting for a runner at a drop point.",
  dropPointReturnDone: (id: string) => `You've taken over parcel ${id}: take it to the sender's address.`,
  dropPointReturnPinText: (pin: string) => `Code for the runner taking it back to the sender: ${pin}`,
  mapDropPoint: 'Drop point',
  dropPointReturnsHere: (count: number) =>
    count === 1
      ? `${count} parcel is waiting here to be taken back to its sender`
      : `${count} parcels are waiting here to be taken back to their senders`,
  // the send form: a drop point instead of the door
  sendDropPointLabel: 'Where should we deliver it?',
  sendToTheDoor: "To the receiver's address",
  sendDropPointHint:
    'If you send it to a drop point, the receiver collects it there during opening hours, with their collection code.',
  // a relay offer's meeting point at a drop point
  relayDropPointsTitle: 'Drop points as meeting places',
  relayDropPointsIntro: 'Covered, well-known places: the nearest ones.',
  relayDropPointUse: (name: string) => `Meet at ${name}`,
  // a code as a QR code: the other side's camera fills it in
  codeQrForStaff: "Collection code as a QR code for the drop point's staff",
  codeQrForRunner: 'Collection code as a QR code for the runner',
  codeQrHint: "Once it's scanned, the code fills itself in: it only needs to be approved.",
  // the receiver refuses it at the drop point's counter
  custodyHowDropPointStaff: 'drop point staff',
  refusedAtDropPointButton: "The receiver won't take it",
  refusedAtDropPointConfirm: 'Are you sure the receiver refused it? The parcel goes back to its sender.',
  refusedAtDropPointYes: 'Yes, send it back',
  refusedAtDropPointDone:
    'The parcel goes back to its sender: they can collect it here, or a runner will take it to them.',
  refusedAtDropPointNotNow: "This parcel isn't waiting for its receiver at this drop point.",
  // the offline outbox (issue 28's actions at the door)
  pendingAttempt: 'Recording a failed delivery',
  pendingPinHandover: 'Hand-over with code',
  attemptPhotoNotQueued:
    "We can't keep the photo of the door while you're offline: the failed delivery will be sent without a photo.",
} as const satisfies Translation<typeof hu>;
