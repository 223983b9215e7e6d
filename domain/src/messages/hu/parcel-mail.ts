/**
 * Mail about parcels (issue 29): what a receiver without an account and a sender are told, the
 * one-click stop, the sender's switches on the profile page, and the send form's address field.
 * No message names a third person beyond what the receiver needs: the sender's name, never their
 * phone, email or address.
 */
export const parcelMail = {
  mailStopLink: 'Leiratkozás',
  mailLinkInvalid: 'Ez a link érvénytelen vagy hiányos.',
  mailTrackButton: 'Csomag követése',
  mailGreetingReceiver: 'Kedves Címzett!',

  // to the receiver, from the address the sender typed
  mailReceiverComingSubject: (id: string) => `Csomagot küldtek neked – ${id}`,
  mailReceiverComing: (sender: string, id: string) =>
    `${sender} csomagot küldött neked a Csomagküldővel (azonosító: ${id}). Egy futár hozza el; az útját az alábbi linken követheted:`,
  mailReceiverComingToDropPoint: (place: string) => `A csomagot átvételi pontra küldték: ${place}. Ott veheted át.`,
  mailReceiverCodeNote:
    'A linken látod az átvételi kódodat is: az átvételkor ezt mondd be a futárnak (vagy mutasd meg a QR kódját). Ne add meg senki másnak.',
  mailReceiverPickedUpSubject: (id: string) => `A csomagod úton van – ${id}`,
  mailReceiverPickedUp: 'Egy futár felvette a csomagot, és hozza hozzád. Az útját itt követheted:',
  mailReceiverNearSubject: (id: string) => `A futár a közelben van – ${id}`,
  mailReceiverNear: 'A futár kevesebb mint egy kilométerre van a címedtől: hamarosan odaér. Itt látod, hol jár:',
  mailReceiverAttemptedSubject: (id: string) => `Nem sikerült kézbesíteni – ${id}`,
  mailReceiverAttempted: (reason: string) => `A futár nem tudta átadni a csomagot (${reason}).`,
  mailReceiverAttemptedNext:
    'Az alábbi linken kérhetsz új időpontot, megadhatod, melyik szomszédodnál hagyja a futár, vagy választhatsz átvételi pontot, ahol átveheted:',
  mailReceiverWithNeighbourSubject: (id: string) => `A csomagod egy szomszédodnál van – ${id}`,
  mailReceiverWithNeighbour: (name: string, door: string) =>
    `A futár nem talált otthon, ezért a csomagot a szomszédodnál hagyta: ${name} (${door}). Az értesítőn lévő kóddal veheted át tőle. A csomagot itt követheted:`,
  mailReceiverAtDropPointSubject: (id: string) => `A csomagod átvehető – ${id}`,
  mailReceiverAtDropPoint: (place: string, hours: string, days: number) =>
    `A csomag az átvételi ponton vár rád: ${place} (nyitva: ${hours}). ${days} napig vár; az átvételi kódodat az alábbi linken látod:`,
  mailReceiverDeliveredSubject: (id: string) => `Kézbesítve – ${id}`,
  mailReceiverDelivered: 'A csomagot átadtuk. Köszönjük, hogy a Csomagküldővel kaptad! A részleteket itt látod:',
  mailReceiverStop: 'Nem kérsz több levelet erről a csomagról?',

  // to the sender, if they have not switched the kind off
  mailSenderPickedUpSubject: (id: string) => `Futár felvette a csomagod – ${id}`,
  mailSenderPickedUp: 'Egy futár felvette a csomagodat, és viszi a címzetthez. Az útját itt követheted:',
  mailSenderAttemptedSubject: (id: string) => `Sikertelen kézbesítés – ${id}`,
  mailSenderAttempted: (reason: string) =>
    `A futár nem tudta kézbesíteni a csomagodat (${reason}). A részleteket és a további lépéseket itt látod:`,
  mailSenderDeliveredSubject: (id: string) => `Kézbesítve – ${id}`,
  mailSenderDelivered:
    'A csomagod megérkezett a címzetthez. A kézbesítés igazolását (mikor, hol, fotó, ha készült) a csomag oldalán látod bejelentkezve:',
  mailSenderReportedSubject: (id: string) => `Probléma a csomagoddal – ${id}`,
  mailSenderReported:
    'A futár problémát jelentett a csomagodnál; az ügyintézők foglalkoznak vele. A részleteket itt látod:',
  mailSenderLost: 'Az ügyintézők a csomagodat elveszettnek nyilvánították. A részleteket itt látod:',
  mailSenderStop: 'Nem kérsz több ilyen levelet? Leiratkozhatsz, vagy a profilodon állíthatod be, miről kapsz levelet:',

  // the profile page's switches
  mailSettingsTitle: 'E-mail értesítések',
  mailSettingsIntro: 'Miről kapj levelet az általad feladott csomagokról:',
  mailKindPickedUp: 'Futár felvette',
  mailKindAttempted: 'Sikertelen kézbesítés',
  mailKindDelivered: 'Kézbesítve (az igazolás linkjével)',
  mailKindReported: 'Bejelentett probléma vagy elveszett csomag',
  mailSettingsSaved: 'Elmentettük, miről kapsz levelet.',
  mailSettingsUnverified: 'Levelet csak megerősített e-mail címre küldünk: erősítsd meg a címed.',

  // the back office's outgoing mail: what each message is
  mailTemplateEmailVerification: 'E-mail cím megerősítése',
  mailTemplateEmailChanged: 'E-mail cím megváltozott',
  mailTemplateReceiver: (what: string) => `Címzettnek: ${what}`,
  mailTemplateSender: (what: string) => `Feladónak: ${what}`,
  mailTemplateComing: 'csomag érkezik',
  mailTemplateNear: 'futár a közelben',
  mailTemplateWithNeighbour: 'szomszédnál',
  mailTemplateAtDropPoint: 'átvételi ponton',
  mailTemplateDelivered: 'kézbesítve',

  // the send form
  receiverEmailLabel: 'Címzett e-mail címe (nem kötelező)',
  receiverEmailHint: 'Ha megadod, levélben értesítjük a csomag útjáról, és megkapja az átvételi kódját.',

  // the one-click stop's page
  unsubscribeTitle: 'Leiratkozás',
  unsubscribeIntro: 'Biztosan nem kérsz több ilyen levelet?',
  unsubscribeSubmit: 'Leiratkozom',
  unsubscribedParcel: (id: string) => `Leiratkoztál: a(z) ${id} csomagról nem küldünk több levelet.`,
  unsubscribedSenderKind: (kind: string) =>
    `Leiratkoztál: „${kind}” levelet nem küldünk többet. A profilodon visszakapcsolhatod.`,

  // the receiver's link on the tracking page
  receiverLinkInvalid: 'Ez a link már nem érvényes ehhez a csomaghoz.',
} as const;
