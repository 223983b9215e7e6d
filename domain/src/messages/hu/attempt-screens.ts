/**
 * When a delivery does not go to plan (issue 28), the web's own words beside attempts.ts's: the
 * custody chain's new rows, the redelivery window as read, the runner's card and the return.
 */
export const attemptScreens = {
  // the back office's custody chain
  custodyKindAttempted: 'Sikertelen kézbesítés',
  custodyKindReturnStarted: 'Visszaküldés indítása',
  custodyKindReturned: 'Visszaadás a feladónak',
  custodyHowSenderQr: 'a feladó QR kóddal',
  // the custody kinds of the slices after it (PIN hand-over, neighbour, loss)
  custodyNeighbour: 'szomszéd',
  custodyKindHandedOverPin: 'Átadás átvételi kóddal',
  custodyKindLeftWithNeighbour: 'Szomszédnál hagyva',
  custodyKindCollected: 'Átvétel a szomszédtól',
  custodyKindLost: 'Elveszettnek nyilvánítva',
  custodyHowReceiverPin: 'a címzett az átvételi kóddal',
  custodyHowSenderPin: 'a feladó az átvételi kóddal',
  custodyHowNeighbourName: 'a szomszéd a nevével',
  custodyDropPoint: 'átvételi pont',
  custodyKindDroppedOff: 'Leadás átvételi ponton',
  custodyHowDropPointPin: 'az átvételi pont kódjával',
  custodyHowDeadline: 'az átvételi határidő lejártával',

  // the runner's card
  attemptPhotoPreviewAlt: 'Az ajtóról készült fotó előnézete',
  attemptPhotoFailed: (reason: string) =>
    `A sikertelen kézbesítést rögzítettük, de a fotót nem sikerült elmenteni: ${reason}`,
  parcelReturnedToSender: 'Visszavitted a csomagot a feladónak.',
  qrShowToSender: (parcelId: string) =>
    `Mutasd meg a feladónak: a telefonjával beolvasva ő hagyja jóvá, hogy visszakapta. Csomag: ${parcelId}`,
  returnDestinationImprecise: 'A feladó pontos helye nem ismert — add át neki QR kóddal',
  attemptPhotoRemove: 'Fotó elvetése',

  // the sender's and receiver's screens
  redeliveryWindowText: (from: string, until: string) => `${from} – ${until}`,
  attemptAt: (time: string) => `Időpont: ${time}`,
  attemptNoteText: (note: string) => `Megjegyzés: ${note}`,
  attemptsLoadFailed: 'A kézbesítési kísérleteket nem sikerült betölteni.',
} as const;
