/** A parcel's statuses and timeline events as people read them, and how long ago (SPEC §4; issue 30 moved them here from the domain's tables). */
export const parcelLabels = {
  // statuses (SPEC §4's labels)
  statusWaiting: 'várakozik',
  statusInTransit: 'szállítás alatt',
  statusDelivered: 'leadott',

  // timeline events
  eventCreated: 'Feladva',
  eventPickedUp: 'Futár felvette',
  eventAssigned: 'Futárhoz rendelve',
  eventDelivered: 'Leadva',
  eventHandedOverQr: 'Átadva QR kóddal',
  eventEdited: 'Adatok módosítva',
  eventStatusChanged: 'Státusz módosítva',
  eventDeleted: 'Törölve',
  eventGivenBack: 'A futár visszaadta',
  eventCancelled: 'Feladás visszavonva',
  eventRelayed: 'Átadva másik futárnak',
  eventCustodyOverride: 'Felelős módosítva',
  eventProofPhoto: 'Fotó a leadásról',
  eventHandedOverPin: 'Átadva átvételi kóddal',
  eventLeftWithNeighbour: 'Szomszédnál hagyva',
  eventCollected: 'Átvéve a szomszédtól',
  eventIncidentReported: 'Probléma bejelentve',
  eventDropPointChosen: 'Átvételi pont kiválasztva',
  eventDroppedOff: 'Átvételi pontra leadva',
  eventCollectedAtDropPoint: 'Átvéve az átvételi ponton',
  eventLost: 'Elveszettnek nyilvánítva',
  eventAttempted: 'Sikertelen kézbesítés',
  eventRedeliveryRequested: 'Új kézbesítési időpont kérve',
  eventNeighbourRequested: 'Kérés: a szomszédnál hagyni',
  eventReturnStarted: 'Visszaküldés a feladónak',
  eventReturned: 'Visszaérkezett a feladóhoz',
  eventTakenFromDropPoint: 'Futár elvitte az átvételi pontról a feladóhoz',
  eventAttemptPhoto: 'Fotó az ajtóról',

  // how long ago
  ageNow: 'most',
  ageMinutes: (minutes: number) => `${minutes} perce`,
  ageHours: (hours: number) => `${hours} órája`,
  ageDays: (days: number) => `${days} napja`,
  /** The decimal mark of a distance ('1,2 km'). */
  decimalMark: ',',
  /** A moment as the pages write it (SPEC): '2026-11-29 15:20:00', Budapest time. */
  timestamp: (year: string, month: string, day: string, clock: string) => `${year}-${month}-${day} ${clock}`,

  // registration's role
  selfRegisterRoleInvalid: 'A szerepkör user vagy runner lehet.',
} as const;
