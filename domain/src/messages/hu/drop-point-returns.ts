/**
 * Drop points in the runner's and sender's screens (issue 28): a parcel not collected in time goes
 * back to its sender's door with a runner who takes it there with the code its staff read out; the
 * runner's map shows the points; a sender may send to one instead of the door.
 */
export const dropPointReturns = {
  dropPointReturnsTitle: 'Átvételi pontról vissza a feladóhoz',
  dropPointReturnsHint:
    'Ezeket a csomagokat nem vették át időben: vidd el az átvételi pontról a feladó címére. A pont munkatársa mondja meg a kódot.',
  dropPointReturnFrom: (name: string, address: string) => `Felvétel: ${name}, ${address}`,
  dropPointReturnTo: (address: string) => `Cél: a feladó címe, ${address}`,
  dropPointReturnPinLabel: 'Kód az átvételi ponttól',
  dropPointReturnSubmit: 'Átveszem',
  dropPointReturnTaken: 'Ezt a csomagot már elvitték az átvételi pontról.',
  dropPointReturnNotWaiting: 'Ez a csomag nem vár futárra átvételi ponton.',
  dropPointReturnDone: (id: string) => `Átvetted a(z) ${id} csomagot: vidd a feladó címére.`,
  dropPointReturnPinText: (pin: string) => `Kód a futárnak, aki a feladóhoz viszi: ${pin}`,
  mapDropPoint: 'Átvételi pont',
  dropPointReturnsHere: (count: number) => `${count} csomag vár itt arra, hogy a feladójához vigyék`,
  // the send form: a drop point instead of the door
  sendDropPointLabel: 'Hova kézbesítsük?',
  sendToTheDoor: 'A címzett címére',
  sendDropPointHint: 'Átvételi pontra küldve a címzett ott veszi át, nyitvatartási időben, az átvételi kódjával.',
  // a relay offer's meeting point at a drop point
  relayDropPointsTitle: 'Átvételi pontok találkozási helynek',
  relayDropPointsIntro: 'Fedett, ismert hely: a legközelebbiek.',
  relayDropPointUse: (name: string) => `Itt: ${name}`,
  // a code as a QR code: the other side's camera fills it in
  codeQrForStaff: 'Átvételi kód QR kódként az átvételi pont munkatársának',
  codeQrForRunner: 'Átvételi kód QR kódként a futárnak',
  codeQrHint: 'Ha beolvassák, a kód magától kitöltődik: csak jóvá kell hagyni.',
  // the receiver refuses it at the drop point's counter
  custodyHowDropPointStaff: 'az átvételi pont munkatársa',
  refusedAtDropPointButton: 'A címzett nem veszi át',
  refusedAtDropPointConfirm: 'Biztosan visszautasította a címzett? A csomag visszamegy a feladójához.',
  refusedAtDropPointYes: 'Igen, visszaküldöm',
  refusedAtDropPointDone: 'A csomag visszamegy a feladójához: ő átveheti itt, vagy egy futár elviszi neki.',
  refusedAtDropPointNotNow: 'Ez a csomag nem a címzettjére vár ezen az átvételi ponton.',
  // the offline outbox (issue 28's actions at the door)
  pendingAttempt: 'Sikertelen kézbesítés rögzítése',
  pendingPinHandover: 'Átadás kóddal',
  attemptPhotoNotQueued:
    'Az ajtóról készült fotót kapcsolat nélkül nem tudjuk eltenni: a sikertelen kézbesítést fotó nélkül küldjük el.',
} as const;
