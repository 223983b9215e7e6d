/** The public tracking screens' texts (web, SPEC §2.5). */
export const tracking = {
  trackingTitle: 'Csomagkövetés',
  trackingSearchHint: 'Add meg a csomag azonosítóját – regisztráció nélkül is követheted.',
  parcelIdInputLabel: 'Csomagazonosító',
  parcelIdPlaceholder: 'csomagID',
  trackingSearchSubmit: 'Keresés',
  backToTrackingSearch: 'Vissza a kereséshez',
  parcelDetailsLabel: 'A csomag adatai',
  sentAtLabel: 'Feladva',
  pickedUpAtLabel: 'Felvéve',
  deliveredAtLabel: 'Leadva',
  timelineTitle: 'Előzmények',
  currentStatus: (status: string) => `Jelenlegi státusz: ${status}`,
  trackingMapLabel: 'A csomag térképe',
} as const;
