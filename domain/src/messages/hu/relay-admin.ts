/** Relay in the back office: the multi-leg filter and the custody override (issue 14). */
export const relayAdmin = {
  multiLegFilterInvalid: 'A „többszakaszos” szűrő értéke csak true vagy false lehet.',
  multiLegFilter: 'Többszakaszos',
  multiLegFilterHint: 'Csak a futárról futárra átadott csomagok',
  multiLegBadge: 'többszakaszos',
  custodyOverrideTitle: 'Felelős módosítása',
  custodyOverrideIntro: (runner: string) =>
    `Most ${runner} felel a csomagért. Ha valójában másnál van, nevezd meg az új futárt és írd le, miért módosítod: a lánc rögzíti.`,
  custodyOverrideRunner: 'Új felelős futár (felhasználónév)',
  custodyOverrideReason: 'A módosítás oka',
  custodyOverrideSubmit: 'Új felelős kijelölése',
  custodyEventUnverified: '(nem ellenőrizhető)',
  custodyHash: (hash: string) => `lenyomat ${hash}…`,
  custodyOverrideDone: (runner: string) => `Mentve: a csomag felelőse mostantól ${runner}.`,
} as const;
