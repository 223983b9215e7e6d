import type { relayScreens as hu } from '../hu/relay-screens.ts';
import type { Translation } from '../translation.ts';

/** The relay screens: the hand-over QR, the take-over page, the legs on the tracking page (issue 14). */
export const relayScreens = {
  // the carrier's side: the in-progress card and its QR code
  relayHandOff: 'Hand over to another runner',
  relayHandOffClose: 'Close',
  relayShowToRunner: (parcelId: string) =>
    `Show this to the next runner: they scan it with their phone to confirm they've taken the parcel over. Parcel: ${parcelId}`,
  relayQrLabel: 'Runner hand-over QR code',
  relayPinText: (pin: string) =>
    `If they can't scan it, tell them the parcel ID and this code: ${pin}. They enter it on the ‘Take over from another runner’ page.`,

  // the next runner's side: /FutarAtvetel
  takeOverTitle: 'Take over a parcel from another runner',
  takeOverIntro: 'Check the parcel and confirm that you have it now.',
  takeOverConfirm: 'Take over',
  takeOverDone: "You've taken over the parcel: it's with you now.",
  relayHandedOn: (parcelId: string, runner: string) =>
    `You've handed over parcel ${parcelId}: it's now with ${runner}.`,
  takeOverRunnersOnly: 'Only a runner can take over a parcel from another runner: sign in with your runner account.',
  takeOverByCodeTitle: 'Take over by code',
  takeOverByCodeHint: "Scan the other runner's QR code, or type in the parcel ID and the code their phone shows.",
  takeOverParcelIdLabel: 'Parcel ID',
  takeOverPinLabel: "The other runner's code",
  takeOverFromRunnerLink: 'Take over from another runner',
  takeOverCurrentHolder: 'Currently with',
  takeOverFrom: 'From',
  takeOverTo: 'To',

  // the back office: the parcel edit page's custody chain
  custodyChainTitle: 'Custody chain',
  custodyChainLabel: "The parcel's custody chain",
  custodyChainVerified: 'Chain verified: intact.',
  custodyChainBroken: (seq: string) => `The chain is broken: it can't be verified from entry ${seq} on.`,
  custodyStep: (from: string, to: string) => `${from} → ${to}`,
  custodyHow: (how: string) => `Confirmed by: ${how}`,
  custodyReason: (reason: string) => `Reason: ${reason}`,
  custodyPlace: (lat: string, lng: string) => `Location: ${lat}, ${lng}`,
  custodyNobody: '—',
  custodyKindCreated: 'Created',
  custodyKindPickedUp: 'Pickup',
  custodyKindAssigned: 'Assignment',
  custodyKindGivenBack: 'Given up',
  custodyKindDelivered: 'Delivery',
  custodyKindHandedOverQr: 'QR code hand-over',
  custodyKindRelayed: 'Relay',
  custodyKindOverride: 'Holder set',
  custodyKindStatusChanged: 'Status change',
  custodyKindCancelled: 'Cancellation',
  custodyKindDeleted: 'Deletion',
  custodySender: 'sender',
  custodyRunner: 'runner',
  custodyReceiver: 'receiver',
  custodyHowSender: 'the sender',
  custodyHowRunner: 'the runner',
  custodyHowReceiverQr: 'the holder of the collection link (QR code)',
  custodyHowRunnerQr: 'the taking runner, by QR code',
  custodyHowRunnerPin: "the taking runner, with the other runner's code",
  custodyHowAdmin: 'support',
  custodyHowMigration: 'filled in from earlier data',

  // who confirmed a QR hand-over (issue 27): the receiver's page asks a name, the back office reads it
  handoverNameLabel: 'Your name',
  handoverConfirmedByAccount: (userName: string) => `Confirmed by ${userName} (signed in)`,
  handoverConfirmedByLinkHolder: 'Confirmed by the link holder, not signed in',
  handoverConfirmerName: (name: string) => `as “${name}”`,
  handoverConfirmerNoName: 'no name given',
  handoverConfirmerSigned: 'with a signature',
  handoverConfirmerNotSigned: 'without a signature',

  // the tracking page's timeline
  relayLeg: (from: string, to: string, place: string | null, time: string) =>
    `Handed over: ${from} → ${to}${place ? `, ${place}` : ''}, ${time}`,
} as const satisfies Translation<typeof hu>;
