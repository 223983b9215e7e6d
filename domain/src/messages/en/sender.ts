import type { sender as hu } from '../hu/sender.ts';
import type { Translation } from '../translation.ts';

/** The sender's screens' texts (web): dashboard, sending, sent and incoming parcels (SPEC §2.6). */
export const sender = {
  // dashboard
  senderDashboardTitle: 'Overview',
  incomingTab: 'Addressed to me',
  sentTab: 'Sent',
  allIncomingParcels: 'All parcels addressed to me',
  allSentParcels: 'All sent parcels',
  senderTipShareId: 'Send the parcel ID to the receiver: they can track the parcel with it too.',
  senderTipAddress: 'The receiver sees the parcel in their own list if their profile has the same address.',
  senderTipDelivery:
    'The runner delivers the parcel within 15 metres of the address, or with a QR code scanned by the receiver.',
  sendParcelLink: 'Send a parcel',

  // incoming and sent parcels
  incomingParcelsTitle: 'Parcels addressed to me',
  incomingEmpty: 'No parcels are addressed to you.',
  sentParcelsTitle: 'Sent parcels',
  sentEmpty: "You haven't sent any parcels yet.",
  sentEmptyWithStatus: "You haven't sent any parcels with this status.",
  newParcelLink: 'Send a new parcel',
  allStatuses: 'All',
  cancelParcel: 'Cancel sending',
  confirmCancelParcel: 'Yes, cancel it',
  // the tracking link of a sent parcel, for the receiver (issue 27)
  shareTrackingLink: 'Share',
  copyTrackingLink: 'Copy tracking link',
  trackingLinkCopied: 'Tracking link copied to the clipboard.',
  trackingShareTitle: (parcelId: string) => `Parcel tracking: ${parcelId}`,
  trackingShareText: 'You can track the parcel with this link.',

  // sending a parcel
  sendParcelTitle: 'Sending a parcel',
  senderAddressLabel: 'Pickup address',
  senderAddressPlaceholder: 'e.g. 1052 Budapest, Váci utca 12',
  receiverAddressLabel: 'Delivery address',
  receiverAddressPlaceholder: 'e.g. 6720 Szeged, Kárász utca 5',
  recipientNameLabel: "Receiver's name",
  recipientPhoneLabel: "Receiver's phone number",
  recipientPhonePlaceholder: 'e.g. +36 30 123 4567',
  sendParcelSubmit: 'Send',
  showBothPins: 'Both points',
  showPin: (pin: string) => `Show ${pin}`,
} as const satisfies Translation<typeof hu>;
