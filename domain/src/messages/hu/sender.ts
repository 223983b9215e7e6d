/** The sender's screens' texts (web): dashboard, sending, sent and incoming parcels (SPEC §2.6). */
export const sender = {
  // dashboard
  senderDashboardTitle: 'Áttekintés',
  incomingTab: 'Nekem címzett',
  sentTab: 'Feladott',
  allIncomingParcels: 'Összes nekem címzett csomag',
  allSentParcels: 'Összes feladott csomag',
  senderTipShareId: 'A csomagazonosítót küldd el a címzettnek: azzal ő is követheti a csomagot.',
  senderTipAddress: 'A címzett akkor látja a csomagot a saját listájában, ha a profiljában ugyanez a cím szerepel.',
  senderTipDelivery: 'A futár a címtől 15 méteren belül, vagy a címzett által beolvasott QR kóddal adja le a csomagot.',
  sendParcelLink: 'Csomag feladása',

  // incoming and sent parcels
  incomingParcelsTitle: 'Nekem címzett csomagok',
  incomingEmpty: 'Nincs hozzád címzett csomag.',
  sentParcelsTitle: 'Feladott csomagok',
  sentEmpty: 'Még nem adtál fel csomagot.',
  sentEmptyWithStatus: 'Nincs ilyen státuszú feladott csomagod.',
  newParcelLink: 'Új csomag feladása',
  allStatuses: 'Összes',
  cancelParcel: 'Feladás visszavonása',
  confirmCancelParcel: 'Igen, visszavonom',
  // the tracking link of a sent parcel, for the receiver (issue 27)
  shareTrackingLink: 'Megosztás',
  copyTrackingLink: 'Követési link másolása',
  trackingLinkCopied: 'A követési link a vágólapra került.',
  trackingShareTitle: (parcelId: string) => `Csomagkövetés: ${parcelId}`,
  trackingShareText: 'Ezen a linken követheted a csomagot.',

  // sending a parcel
  sendParcelTitle: 'Csomagfeladás',
  senderAddressLabel: 'Feladási cím',
  senderAddressPlaceholder: 'pl. 1052 Budapest, Váci utca 12',
  receiverAddressLabel: 'Kiszállítási cím',
  receiverAddressPlaceholder: 'pl. 6720 Szeged, Kárász utca 5',
  recipientNameLabel: 'Címzett neve',
  recipientPhoneLabel: 'Címzett telefonszáma',
  recipientPhonePlaceholder: 'pl. +36 30 123 4567',
  sendParcelSubmit: 'Feladás',
  showBothPins: 'Mindkét pont',
  showPin: (pin: string) => `${pin} megnézése`,
} as const;
