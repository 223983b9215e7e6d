/**
 * Where things are, on the web's screens (issue 25): what each pin of the send form is and how it
 * is placed, and how precisely a place is known wherever one is shown (runner cards and map,
 * tracking, trips). The geocoder's own words (refusals, labels) are in places.ts.
 */
export const placesScreens = {
  // the send form: what each address's pin is, said beside the address
  pinAtDoor: (label: string) => `A tű a kapunál van (${label})`,
  pinOnStreet: (label: string) => `Ez a(z) ${label} egy pontja — húzd a tűt a kapuhoz`,
  pinAtSettlementCentre: (label: string) => `Ez ${label} közepe — húzd a tűt a kapuhoz`,
  pinManual: 'Kézzel elhelyezve',
  pinManualNear: (label: string) => `Kézzel elhelyezve — közelében: ${label}`,
  pinSearching: 'A cím helyét keressük…',
  /** `distance`: '170 km', '800 m' (formatDistance). */
  pinFarFromAddress: (distance: string) =>
    `A tű ${distance}-re van attól a helytől, ahová a cím mutat: biztosan jó helyen van?`,
  pinBackToAddress: 'Vissza a cím helyére',
  pinPlaceOnMap: 'Elhelyezem a térképen',
  // the send form's map
  sendMapHelp:
    'A futár a tűkhöz megy: húzd őket a kapuhoz, vagy koppints a térképen. QR kód nélkül csak a kapunál lévő vagy kézzel elhelyezett tűnél adhat le.',
  tapTargetLegend: 'Koppintás a térképen',
  tapTargetPickup: 'Felvétel',
  tapTargetDestination: 'Cél',
  pickupPinMissing: 'Hiányzik a feladási pont: írd be a feladási címet, vagy koppints a térképen a helyére.',
  destinationPinMissing:
    'Hiányzik a kiszállítási pont: írd be a kiszállítási címet, vagy koppints a térképen a helyére.',

  // how precisely a place is known, wherever one is shown ('… csak az utca szerint ismert')
  knownByStreet: 'az utca szerint',
  knownBySettlement: 'a település szerint',
  pickupKnownOnly: (how: string) => `A felvételi pont csak ${how} ismert.`,
  destinationKnownOnly: (how: string) => `A kiszállítási pont csak ${how} ismert.`,
  trackingDestinationKnownOnly: (how: string) =>
    `A kiszállítási pont csak ${how} ismert: a futár QR kóddal adja át a csomagot, a címzett jóváhagyásával.`,
  /** A distance to a pickup whose door is not known; `distance`: '3,1 km'. */
  approximateDistance: (distance: string) => `~${distance} (a cím pontatlan)`,
  tripFromKnownOnly: (how: string) => `Az indulás helye csak ${how} ismert: a kitérőt ehhez a ponthoz számoljuk.`,
  tripToKnownOnly: (how: string) => `Az érkezés helye csak ${how} ismert: a kitérőt ehhez a ponthoz számoljuk.`,
} as const;
