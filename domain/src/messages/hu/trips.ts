/** Trips on the server: validation of a trip and of saved trips, live offers (issue 13). */
export const trips = {
  tripModeInvalid: 'Válassz közlekedési módot: gyalog, kerékpár vagy tömegközlekedés.',
  tripSamePoints: 'Az indulás és az érkezés ugyanaz a hely: adj meg két különböző pontot.',
  tripTooLong: (km: number) => `Az útvonal túl hosszú: legfeljebb ${km} km lehet.`,
  tripDetourInvalid: (min: number, max: number) => `A kitérő ${min} és ${max} perc között lehet (egész szám).`,
  tripDepartureInvalid: 'Az indulás ideje „most” vagy egy időpont lehet.',
  tripDepartureInPast: 'Az indulás ideje már elmúlt.',
  tripDepartureTooLate: 'Az indulás ma vagy holnap lehet.',
  tripLabelInvalid: (max: number) => `Adj nevet az útvonalnak (legfeljebb ${max} karakter).`,
  tripWeekdaysInvalid: 'Válassz legalább egy napot a hétből.',
  tripTimeInvalid: 'Az indulás időpontja ÓÓ:PP alakú legyen (például 07:40).',
  tripPausedInvalid: 'A szüneteltetés igen vagy nem lehet.',
  tripLimitReached: (max: number) => `Legfeljebb ${max} mentett útvonalad lehet.`,
  tripNotFound: 'Nincs ilyen mentett útvonalad.',
  tripPatchEmpty: 'Nincs mit módosítani.',
  // push (the profile page's switch, the notification)
  pushKindTripOffer: 'Új csomag a mentett útvonalamon',
  pushTitleTripOffer: 'Csomag az utadon',
  pushStatusTripOffer: (parcelId: string) => `Egy új csomag (${parcelId}) a mentett útvonaladba illik.`,
} as const;
