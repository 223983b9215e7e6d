/** The trip screens: the form, the matches, the map and the saved trips (issue 13). */

const WEEKDAY_NAMES = ['Hétfő', 'Kedd', 'Szerda', 'Csütörtök', 'Péntek', 'Szombat', 'Vasárnap'] as const;
const WEEKDAY_SHORT = ['H', 'K', 'Sze', 'Cs', 'P', 'Szo', 'V'] as const;

export const tripScreens = {
  menuTrip: 'Útvonal',
  tripTitle: 'Útvonal',
  tripIntro: 'Add meg, merre mész: megmutatjuk a felvételre váró csomagokat, amelyek útba esnek.',
  tripDashboardLink: 'Útvonal megadása: útba eső csomagok',

  // the form
  tripFromLegend: 'Honnan indulsz?',
  tripToLegend: 'Hova mész?',
  tripSourceAddress: 'Cím',
  tripSourceMap: 'Pont a térképen',
  tripSourceHere: 'Jelenlegi helyzetem',
  tripFromAddressLabel: 'Indulás címe',
  tripToAddressLabel: 'Érkezés címe',
  tripAddressPlaceholder: 'pl. 1052 Budapest, Váci utca 12',
  tripPickMapHint: 'Koppints a térképre a pont kijelöléséhez.',
  tripPickMapLabel: (end: string) => `Térkép: ${end} kijelölése`,
  tripPointChosen: (lat: string, lng: string) => `Kijelölt pont: ${lat}, ${lng}`,
  tripPointFound: (label: string) => `Megtalált hely: ${label}`,
  tripPositionPending: 'A helyzeted meghatározása folyamatban…',
  tripPositionKnown: 'A jelenlegi helyzetedből indulunk.',
  tripPositionKnownTo: 'A jelenlegi helyzetedhez érkezel.',
  tripPointMissing: 'Add meg ezt a pontot: címmel, a térképen vagy a jelenlegi helyzeteddel.',
  tripDepartureLegend: 'Indulás ideje',
  tripDepartureNow: 'Most',
  tripDepartureToday: 'Ma',
  tripDepartureTomorrow: 'Holnap',
  tripDepartureTimeLabel: 'Időpont',
  tripModeLegend: 'Közlekedési mód',
  tripModeWalk: 'Gyalog',
  tripModeBike: 'Kerékpár',
  tripModeTransit: 'Tömegközlekedés',
  tripDetourLabel: 'Legfeljebb ennyi kitérő (perc)',
  tripSearchSubmit: 'Útba eső csomagok keresése',

  // the matches
  tripMatchesTitle: 'Útba eső csomagok',
  tripMatchesEmpty: 'Most nincs olyan felvételre váró csomag, amely útba esne.',
  tripAddedMinutes: (minutes: number) => `+${minutes} perc`,
  tripMapLabel: 'Az útvonal és az útba eső csomagok térképe',
  tripStartMarker: 'Indulás',
  tripEndMarker: 'Érkezés',
  tripPickupMarker: (address: string) => `Felvétel: ${address}`,
  tripDeliveryMarker: (address: string) => `Leadás: ${address}`,

  // relay offers on the way (issue 14; the offer itself reads as on the waiting list: relay-offers.ts)
  tripRelayIntro: 'Futárok, akik az utadba eső helyen továbbadnák a csomagjukat, közelebb a céljához.',
  tripRelayEmpty: 'Most nincs olyan továbbadás, amely útba esne és közelebb vinné a csomagot a céljához.',
  /** `distance`: '5,3 km' (formatDistance). */
  tripRelayCloser: (distance: string) => `${distance}-rel közelebb a célhoz`,
  /** The trip map's pin; by its place, as several may be on one trip. */
  tripRelayMarker: (place: string) => `Továbbadás: ${place}`,

  // saved trips
  tripSaveTitle: 'Útvonal mentése',
  tripSaveHelp:
    'Mentsd el rendszeres utadat: amíg az indulásig egy óránál kevesebb van hátra, szólunk, ha útba eső csomag érkezik.',
  tripSaveLabelLabel: 'Megnevezés',
  tripSaveLabelPlaceholder: 'pl. Munkába',
  tripSaveWeekdaysLegend: 'Napok',
  tripWeekdayName: (day: number) => WEEKDAY_NAMES[day - 1] ?? String(day),
  tripSaveTimeLabel: 'Indulás időpontja',
  tripSaveSubmit: 'Útvonal mentése',
  tripSaveNeedsPoints: 'Előbb add meg az indulás és az érkezés helyét.',
  tripSaved: (label: string, schedule: string) => `Elmentve: ${label} (${schedule})`,
  savedTripsTitle: 'Mentett útvonalaim',
  savedTripsEmpty: 'Még nincs mentett útvonalad.',
  /** 'Hétköznap 7:40': the days, then the time. */
  savedTripSchedule: (days: string, time: string) => `${days} ${time}`,
  tripWeekdaysWork: 'Hétköznap',
  tripWeekdaysWeekend: 'Hétvégén',
  tripWeekdaysEvery: 'Minden nap',
  tripWeekdayShort: (day: number) => WEEKDAY_SHORT[day - 1] ?? String(day),
  savedTripMode: (mode: string, detour: number) => `${mode}, legfeljebb ${detour} perc kitérő`,
  savedTripPausedBadge: 'Szünetel',
  savedTripRoute: (from: string, to: string) => `${from} → ${to}`,
  savedTripPause: 'Szüneteltetés',
  savedTripResume: 'Folytatás',
  savedTripDelete: 'Törlés',
  savedTripActionLabel: (action: string, label: string) => `${action}: ${label}`,
  savedTripPaused: (label: string) => `Szüneteltetve: ${label}`,
  savedTripResumed: (label: string) => `Újra figyeljük: ${label}`,
  savedTripDeleted: (label: string) => `Törölve: ${label}`,

  // live offers
  tripOfferTitle: 'Új csomag az útvonaladon',
  tripOfferParcel: (parcelId: string) => `Csomag: ${parcelId}`,
  tripOfferRoute: (from: string, to: string) => `${from} → ${to}`,
} as const;
