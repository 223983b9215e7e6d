import type { runner as hu } from '../hu/runner.ts';
import type { Translation } from '../translation.ts';

/** The runner's screens' texts (web), and the receiver's QR handover page (SPEC §2.7). */
export const runner = {
  // dashboard
  runnerDashboardTitle: 'Runner overview',
  deliveringTab: 'In transit',
  waitingTab: 'Awaiting pickup',
  runnerTipCapacity: 'Only pick up as many parcels as you can comfortably carry.',
  runnerTipDelivery:
    'You can deliver a parcel within 15 metres of its address, or the receiver can take it by QR code.',
  runnerTipPosition: "While you're carrying a parcel, your location shows on its tracking page.",
  supportTitle: 'Contact',
  supportEmailLabel: 'Email:',
  supportPhoneLabel: 'Phone:',
  supportOfficeLabel: 'Office:',
  // placeholders until the community has its own support line (SPEC §2.7)
  supportEmail: 'segitseg@csomagkuldo.hu',
  supportPhone: '+36 1 234 5678',
  supportOffice: '1051 Budapest, Példa utca 1.',

  // waiting parcels, list and map
  waitingParcelsTitle: 'Parcels waiting for a runner',
  waitingFor: (age: string) => `Waiting: ${age}`,
  pickUpParcel: 'Pick up parcel',
  pickUpShort: 'Pick up',
  runnerMapTitle: 'Runner map',
  runnerMapLabel: 'Map of parcels waiting for a runner',
  popupFrom: 'From:',
  popupTo: 'To:',
  popupId: 'ID:',
  popupAddress: 'Address:',
  popupSender: 'Sender:',

  // parcels in progress
  inProgressTitle: 'Parcels in progress',
  inProgressEmpty: 'You have no parcels to deliver right now.',
  callRecipient: 'Call receiver',
  callNamedRecipient: (name: string) => `Call receiver (${name})`,
  callSender: (name: string) => `Call sender (${name})`,
  deliverWithoutQr: 'Deliver without QR code',
  deliverWithQr: 'Deliver with QR code',
  locatingForDelivery: 'Finding your location… Meanwhile, you can deliver with a QR code.',
  giveBack: 'Give it up',

  // the runner's QR code
  qrPageTitle: 'Delivery by QR code',
  qrShowToReceiver: (parcelId: string) =>
    `Show this to the receiver: they scan it with their phone to confirm they've received it. Parcel: ${parcelId}`,
  qrCodeLabel: 'Collection QR code',
  qrValidUntil: (time: string) => `Valid until: ${time}`,
  qrExpired: 'The QR code has expired.',
  qrRenew: 'New QR code',
  qrParcelHandedOver: (parcelId: string) => `Parcel ${parcelId} has been received.`,
  qrChooseParcel: 'Choose the parcel to deliver from your parcels in progress.',
  backToInProgress: 'Back to parcels in progress',

  // the receiver's handover page
  handoverTitle: 'Receive a parcel by QR code',
  acceptHandover: 'Receive',
  handoverThanks: 'Thank you for choosing Csomagküldő.',
  handoverReceived: (parcelId: string) => `You've received parcel ${parcelId}.`,
} as const satisfies Translation<typeof hu>;
