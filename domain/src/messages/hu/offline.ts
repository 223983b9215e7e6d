/** The installable app, the offline outbox and the offline banner (issue 12). */
export const offline = {
  // the web app manifest (generated at build time from these)
  manifestName: 'Csomagküldő',
  manifestShortName: 'Csomagküldő',
  manifestDescription: 'Közösségi csomagküldés: bárki feladhat csomagot, bárki lehet futár.',
  shortcutWaitingParcels: 'Futárra váró csomagok',
  shortcutWaitingParcelsShort: 'Várólista',
  shortcutRunnerMap: 'Futártérkép',
  shortcutRunnerMapShort: 'Térkép',

  // a new build's service worker is waiting
  updateAvailable: 'Új verzió érhető el',
  updateNow: 'frissítés',

  // the outbox
  pendingActions: (count: number) => `Függőben: ${count} művelet`,
  pendingActionsHint: 'A kapcsolat visszatérésekor automatikusan elküldjük őket.',
  pendingPickUp: 'Csomag felvétele',
  pendingDeliver: 'Leadás QR kód nélkül',
  pendingHandover: 'QR kódos átvétel megerősítése',
  pendingCreateParcel: 'Csomagfeladás',
  pendingMadeAt: (time: string) => `rögzítve: ${time}`,
  actionQueued: 'Nincs kapcsolat: a műveletet elmentettük, és a kapcsolat visszatérésekor elküldjük.',
  actionDropped: 'Egy függőben lévő műveletet a szerver nem fogadott el, ezért töröltük.',

  // reads while offline
  offlineSince: (time: string) => `Offline — utoljára frissítve: ${time}`,
  offlineNoData: 'Offline — még nincs elmentett adat.',
} as const;
