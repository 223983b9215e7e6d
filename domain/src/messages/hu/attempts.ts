/**
 * When a delivery does not go to plan (issue 28): failed attempts, the receiver's new time,
 * returning to the sender and the honest 'Visszaadom' — server refusals and screens.
 */
export const attempts = {
  // states
  stateAttempted: 'sikertelen kézbesítés',
  stateReturning: 'visszaküldés alatt',
  stateReturned: 'visszaküldve',
  stateWithNeighbour: 'szomszédnál',

  // reasons
  attemptReasonNobodyHome: 'Nem volt otthon senki',
  attemptReasonWrongAddress: 'Hibás vagy nem található cím',
  attemptReasonRefused: 'A címzett nem vette át',
  attemptReasonUnsafeAccess: 'Nem biztonságos vagy nem megközelíthető',
  attemptReasonOther: 'Egyéb',

  // refusals
  attemptReasonInvalid: 'Válaszd ki, miért nem sikerült a kézbesítés.',
  attemptNoteRequired: 'Írd le röviden, mi történt (3–500 karakter).',
  attemptNoteTooLong: 'A megjegyzés legfeljebb 500 karakter lehet.',
  attemptTooFar: (metres: number) =>
    `Túl messze vagy a címtől (${metres} m): a sikertelen kézbesítést a helyszínen, 15 méteren belül rögzítheted.`,
  attemptNotFound: 'Nincs ilyen kézbesítési kísérlet.',
  redeliveryNotNow: 'Új időpontot csak sikertelen kézbesítés után, a visszaküldés előtt lehet kérni.',
  redeliveryNotAllowed: 'Új időpontot a csomag feladója vagy címzettje kérhet.',
  redeliveryTimeInvalid: 'Adj meg érvényes időpontot.',
  redeliveryWindowOrder: 'Az időablak vége legyen későbbi, mint a kezdete.',
  redeliveryWindowInPast: 'Az időablak már elmúlt: adj meg egy későbbi időpontot.',
  redeliveryWindowTooShort: (minutes: number) => `Az időablak legalább ${minutes} perc legyen.`,
  redeliveryWindowTooLong: (hours: number) => `Az időablak legfeljebb ${hours} óra lehet.`,
  redeliveryTooFarAhead: (days: number) => `Legfeljebb ${days} nappal előre kérhetsz időpontot.`,
  alreadyReturning: 'A csomag már úton van vissza a feladóhoz.',
  returnedParcel: 'A csomag már visszakerült a feladóhoz.',
  lostParcel: 'A csomagot elveszettnek nyilvánították.',
  statusReachedOnlyByItsFlow:
    'Ez az állapot csak a saját folyamatán keresztül érhető el (sikertelen kézbesítés, visszaküldés).',
  backOfficeCannotLeaveReturned: 'A feladónak visszaküldött csomag állapota nem módosítható.',

  // the runner's screens
  attemptButton: 'Nem sikerült kézbesíteni',
  attemptTitle: 'Sikertelen kézbesítés rögzítése',
  attemptReasonLabel: 'Mi történt?',
  attemptNoteLabel: 'Megjegyzés',
  attemptPhotoLabel: 'Fotó az ajtóról (nem kötelező)',
  attemptSubmit: 'Rögzítés',
  attemptLocating: 'A helyzeted meghatározása folyamatban…',
  attemptRecorded: 'A sikertelen kézbesítést rögzítettük. A feladót és a címzettet értesítettük.',
  attemptRecordedReturning:
    'A sikertelen kézbesítést rögzítettük. A csomag visszamegy a feladóhoz: vidd vissza a feladó címére.',
  attemptCount: (count: number) => `Sikertelen kézbesítések: ${count}`,
  redeliveryWindowForRunner: (window: string) => `A címzett új időpontot kért: ${window}`,
  returningTo: (address: string) => `Visszaküldés a feladónak: ${address}`,
  giveUpTitle: 'Mit szeretnél tenni a csomaggal?',
  giveUpHint:
    'A csomag nálad marad, amíg valaki át nem veszi: adj tovább egy másik futárnak, vagy vidd vissza a feladónak.',
  giveUpRelay: 'Továbbadom egy másik futárnak',
  giveUpReturn: 'Visszaviszem a feladónak',
  giveUpReturnReasonLabel: 'Miért viszed vissza?',
  giveUpReturnConfirm: 'Visszaküldés indítása',
  returnStarted: 'A csomag visszamegy a feladóhoz. Vidd vissza a feladó címére, vagy add tovább egy másik futárnak.',

  // the sender's and receiver's screens
  attemptsTitle: 'Kézbesítési kísérletek',
  attemptLine: (number: number, reason: string) => `${number}. kísérlet: ${reason}`,
  attemptPhotoAlt: (number: number) => `Fotó a ${number}. kézbesítési kísérletről`,
  attemptWhatNow: 'Nem sikerült kézbesíteni. Mikor próbálja újra a futár?',
  attemptsLeft: (left: number) =>
    left === 1
      ? 'Ha a következő kísérlet sem sikerül, a csomag visszamegy a feladóhoz.'
      : `Még ${left} sikertelen kísérlet után a csomag visszamegy a feladóhoz.`,
  redeliveryFromLabel: 'Ettől',
  redeliveryUntilLabel: 'Eddig',
  redeliverySubmit: 'Új időpont kérése',
  redeliveryRequested: 'Az új időpontot elküldtük a futárnak.',
  redeliveryWindow: (window: string) => `Kért új időpont: ${window}`,
  parcelReturningNotice: 'A csomag úton van vissza a feladóhoz.',
  parcelReturnedNotice: 'A csomag visszakerült a feladóhoz.',

  // the handover PIN
  handoverPinFormat: (length: number) => `A kód ${length} számjegyből áll.`,
  handoverPinWrong: (left: number) => `Hibás kód. Még ${left} próbálkozás maradt.`,
  handoverPinLocked:
    'Túl sok hibás kód: a csomagot most QR kóddal lehet átadni, vagy egy óra múlva próbáld újra a kódot.',
  handoverPinNotYours: 'Az átvételi kódot csak az láthatja, akihez a csomag épp tart.',
  handoverPinNotNow: 'Átvételi kód csak úton lévő csomaghoz van.',
  handoverPinStale: 'A csomag közben gazdát cserélt: kérd el az új átvételi kódot.',

  // the neighbour
  neighbourNameInvalid: 'Add meg a szomszéd nevét (2–100 karakter).',
  neighbourDoorInvalid: 'Add meg, melyik lakás vagy ajtó (1–60 karakter).',
  neighbourConfirmMismatch: 'A szomszéd a saját nevét írja be megerősítésként, ugyanúgy, ahogy fent szerepel.',
  neighbourNotForReturn: 'Visszaküldés alatt álló csomagot nem lehet szomszédnál hagyni.',
  notWithNeighbour: 'A csomag nincs szomszédnál.',
  neighbourButton: 'Szomszédnál hagyom',
  neighbourTitle: 'Átadás a szomszédnak',
  neighbourNameLabel: 'A szomszéd neve',
  neighbourDoorLabel: 'Emelet, ajtó',
  neighbourConfirmLabel: 'A szomszéd írja be a nevét megerősítésként',
  neighbourSubmit: 'Átadtam a szomszédnak',
  neighbourPinForSlip: (pin: string) =>
    `Átvételi kód a címzettnek: ${pin}. Írd fel az értesítőre: a címzett ezzel veszi át a szomszédtól.`,
  neighbourNotice: (name: string, door: string) => `A csomag a szomszédnál van: ${name} (${door}).`,
  neighbourWishForRunner: (name: string, door: string) =>
    `A címzett kéri, hogy a szomszédnál hagyd: ${name} (${door}).`,
  neighbourWishTitle: 'Vagy hagyja a szomszédnál',
  neighbourWishSubmit: 'Kérem, hagyja a szomszédnál',
  neighbourWishSent: 'A kérést elküldtük a futárnak.',
  collectTitle: 'Átvétel a szomszédtól',
  collectHint: 'Írd be a kódot, amelyet a szomszéd az értesítőn kapott a futártól.',
  collectPinLabel: 'Átvételi kód',
  collectSubmit: 'Átvettem',
  collected: 'Átvetted a csomagot. Köszönjük!',

  // incidents
  stateLost: 'elveszett',
  incidentKindDamaged: 'Megsérült',
  incidentKindLost: 'Elveszett',
  incidentKindInvalid: 'Válaszd ki, mi történt a csomaggal.',
  incidentDescriptionInvalid: 'Írd le, mi történt (3–1000 karakter).',
  incidentStatusInvalid: 'Az állapot csak nyitott vagy lezárt lehet.',
  incidentNotFound: 'Nincs ilyen bejelentés.',
  incidentOpen: 'Erről a csomagról már van nyitott bejelentés.',
  incidentResolved: 'Ezt a bejelentést már lezárták.',
  incidentDecisionInvalid: 'Válaszd ki a döntést: folytatás, visszaküldés vagy elveszettnek nyilvánítás.',
  incidentDecisionContinue: 'A kézbesítés folytatódik',
  incidentDecisionReturn: 'Visszaküldés a feladónak',
  incidentDecisionWriteOff: 'Elveszettnek nyilvánítva',
  incidentReturnNotPossible: 'Csak futárnál lévő, nem visszaküldés alatt álló csomag küldhető vissza.',
  incidentWriteOffNotPossible: 'Célba ért csomag nem nyilvánítható elveszettnek.',
  incidentPhotosFull: (max: number) => `Egy bejelentéshez legfeljebb ${max} fotó tartozhat.`,
  incidentNotYours: 'Fotót csak a saját bejelentésedhez adhatsz.',

  // drop points
  stateAtDropPoint: 'átvételi ponton',
  dropPointKindShop: 'Üzlet',
  dropPointKindLocker: 'Csomagautomata',
  dropPointKindOffice: 'Iroda',
  dropPointNameInvalid: 'Add meg az átvételi pont nevét (2–100 karakter).',
  dropPointKindInvalid: 'Válaszd ki az átvételi pont fajtáját.',
  dropPointOutsideHungary: 'Az átvételi pontnak Magyarországon kell lennie.',
  openingHoursInvalid:
    'A nyitvatartást így add meg: „H-P 8:00-18:00; Szo 9:00-12:00” (napok: H, K, Sze, Cs, P, Szo, V).',
  dropPointNotFound: 'Nincs ilyen átvételi pont.',
  dropPointStaffUnknown: (userName: string) => `Nincs ilyen felhasználó: ${userName}.`,
  dropPointClosed: 'Az átvételi pont most zárva van: a csomagot nyitvatartási időben lehet átvenni.',
  dropPointNotStaff: 'Ezt csak az átvételi pont munkatársa teheti meg.',
  dropPointNotHere: 'A csomag nem ennél az átvételi pontnál van.',
  dropPointNeedsCode: 'Ezt a csomagot az átvételi pont munkatársának add át: kérd el tőle az átvételi kódot.',
  dropPointNotNow: 'Átvételi pontot csak úton lévő, nem visszaküldés alatt álló csomaghoz lehet választani.',

  // push notifications
  pushKindSentAttempted: 'Elküldött küldeményemet nem tudták kézbesíteni',
  pushKindIncomingAttempted: 'Nekem szóló küldeményt nem tudták kézbesíteni',
  pushKindSentReturning: 'Elküldött küldeményem visszafelé tart',
  pushKindSentReturned: 'Elküldött küldeményem visszaérkezett',
  pushTitleAttempted: 'Nem sikerült kézbesíteni',
  pushTitleSentReturning: 'Csomagod visszafelé tart',
  pushTitleSentReturned: 'Csomagod visszaérkezett',
  pushStatusSentAttempted: (parcelId: string) =>
    `A(z) ${parcelId} csomagot nem sikerült kézbesíteni. Nézd meg, mi a teendő.`,
  pushStatusIncomingAttempted: (parcelId: string) =>
    `A neked címzett ${parcelId} csomagot nem sikerült kézbesíteni. Kérj új időpontot!`,
  pushStatusSentReturning: (parcelId: string) => `A(z) ${parcelId} csomag visszafelé tart hozzád.`,
  pushStatusSentReturned: (parcelId: string) => `A(z) ${parcelId} csomag visszaérkezett hozzád.`,
  pushKindWithNeighbour: 'Nekem szóló küldeményt szomszédnál hagytak',
  pushTitleWithNeighbour: 'Csomagod a szomszédnál van',
  pushStatusWithNeighbour: (parcelId: string) => `A(z) ${parcelId} csomagot a szomszédnál hagyták.`,
  pushKindAtDropPoint: 'Nekem szóló küldemény átvételi ponton vár',
  pushTitleAtDropPoint: 'Csomagod átvételi ponton vár',
  pushStatusAtDropPoint: (parcelId: string) =>
    `A(z) ${parcelId} csomag átvételi ponton vár rád. Az átvételi kódot a követési oldalon találod.`,
} as const;
