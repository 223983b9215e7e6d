/**
 * Where things are (issue 25): the geocoder's answers and refusals, precision as people read it,
 * the map's pin placing. Every refusal says what to do next.
 */
export const places = {
  // the national check of an address (server), before any geocoder
  addressUnparsable:
    'Ebből nem tudunk címet kiolvasni. Írd így: irányítószám, település, utca, házszám (például 1114 Budapest, Bartók Béla út 15.).',
  postcodeUnknown: (postalCode: string) =>
    `Nincs ${postalCode} irányítószám Magyarországon. Ellenőrizd az irányítószámot.`,
  postcodeMismatch: (postalCode: string, settlement: string, owners: string) =>
    `A(z) ${postalCode} irányítószám nem ${settlement} irányítószáma, hanem ehhez tartozik: ${owners}. Javítsd az irányítószámot vagy a települést.`,
  settlementUnknown: (written: string) => `Nem ismerünk „${written}” nevű települést. Ellenőrizd a település nevét.`,
  settlementSuggestion: (written: string, suggestion: string) =>
    `Nem ismerünk „${written}” nevű települést. Erre gondoltál: ${suggestion}?`,
  settlementMissing: (street: string, some: string) =>
    `${street} több településen is van (például ${some}): írd a cím elé az irányítószámot vagy a települést.`,
  settlementUnplaced: (settlement: string) =>
    `${settlement} helyét nem ismerjük pontosan: koppints a térképen a pontos helyre.`,
  reverseGeocodeFailed: 'Ennek a pontnak a közelében nem ismerünk címet vagy helységet.',
  outsideHungary: 'Ez a pont nincs Magyarországon: csomagot csak Magyarországon belül küldhetsz.',
  positionTooImprecise: (accuracyMetres: number, maxMetres: number) =>
    `A helyzeted csak ±${accuracyMetres} méterre ismert (legfeljebb ±${maxMetres} méter kell a leadáshoz). Várj pontosabb helymeghatározásra a szabad ég alatt, vagy add át a csomagot QR kóddal.`,

  // labels of what a point is (server: geocoder labels, web: beside a pin)
  streetCentreLabel: (street: string, settlement: string) => `${settlement}, ${street}`,
  placeNear: (place: string) => `${place} közelében`,
};
