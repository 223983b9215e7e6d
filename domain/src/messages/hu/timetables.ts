/** Public-transport times from timetables (issue 26): the trip's plan, its legs, the back office's feeds, relay meeting points. */
export const timetables = {
  // the trip's plan
  tripPlanTimetable: (minutes: number, arrival: string) =>
    `Menetrend szerint az út kitérő nélkül ${minutes} perc, érkezés ${arrival}.`,
  tripPlanExternal: (minutes: number, arrival: string) =>
    `Az útvonaltervező szerint az út kitérő nélkül ${minutes} perc, érkezés ${arrival}.`,
  tripPlanEstimate: (minutes: number, arrival: string) =>
    `Becslés: az út kitérő nélkül kb. ${minutes} perc, érkezés kb. ${arrival}.`,
  tripNoConnection: 'A menetrend szerint erre az indulásra egy napon belül nincs járat.',
  tripFallbackNoTimetable: 'Nincs betöltött menetrend, ezért a percek légvonal alapján becsültek.',
  tripFallbackOutside:
    'Az indulás vagy az érkezés egyik megállótól sincs gyalogtávolságra, ezért a percek légvonal alapján becsültek.',
  /** `day`: 'YYYY-MM-DD'. */
  tripFallbackExpired: (day: string) =>
    `A betöltött menetrend lejárt (${day}-ig volt érvényes), ezért a percek légvonal alapján becsültek.`,
  tripFallbackExternal: 'Az útvonaltervező most nem válaszolt, ezért a percek légvonal alapján becsültek.',
  tripLegsTitle: 'Az út szakaszai',
  /** 'M3 Újpest-központ 7:42 → Deák Ferenc tér 7:55'. */
  tripLegRide: (route: string, from: string, departs: string, to: string, arrives: string) =>
    `${route} ${from} ${departs} → ${to} ${arrives}`,
  tripLegHeadsign: (headsign: string) => `(${headsign} felé)`,
  tripLegWalk: (minutes: number) => `gyalog ${minutes} perc`,
  tripRideLine: (route: string) => `${route} útvonala`,

  // the back office: 'Menetrendek'
  menuTimetables: 'Menetrendek',
  timetablesTitle: 'Menetrendek',
  timetablesIntro:
    'A tömegközlekedési percek ezekből a GTFS menetrendekből számolódnak. Újak betöltése: npm run gtfs:import -- FÁJL.zip',
  timetablesEmpty:
    'Nincs betöltött menetrend: a tömegközlekedés perceit légvonal alapján becsüljük. Betöltés: npm run gtfs:import -- FÁJL.zip',
  timetablesExternal: 'Külső útvonaltervező (TRAVEL_TIME_URL) válaszol elsőként; ha nem válaszol, ezek a menetrendek.',
  timetablesImportedAt: (at: string) => `Betöltve: ${at}`,
  timetableFile: 'Fájl',
  timetableAgencies: 'Üzemeltető',
  timetableValidity: 'Érvényesség',
  timetableContents: 'Tartalom',
  timetableValid: (from: string, until: string) => `${from} – ${until}`,
  timetableExpired: 'Lejárt',
  timetableCounts: (stops: number, routes: number, trips: number) =>
    `${stops} megálló, ${routes} vonal, ${trips} menet`,

  // relay meeting points where trips meet
  relayMeetingTitle: 'Javasolt találkozási pontok',
  relayMeetingIntro: 'Megállók, amelyeken az utad és más futárok mentett útvonala is áthalad, az ablakba eső időben.',
  relayMeetingEmpty: 'Most nincs olyan megálló, ahol az utad és más futár útvonala találkozna.',
  relayMeetingNoTrip: 'Találkozási pontot akkor javaslunk, ha van most induló mentett utad.',
  /** `time`: 'HH:MM' Budapest time. */
  relayMeetingPoint: (stop: string, time: string, runners: number) =>
    `${stop}, ${time} — ${runners} futár útvonala érinti`,
  relayMeetingUse: (stop: string) => `${stop} kiválasztása`,
};
