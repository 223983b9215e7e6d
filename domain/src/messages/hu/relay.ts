/** Custody and relay on the server: hand-over links, refusals, overrides (issue 14). */
export const relay = {
  relayLinkInvalid: 'Ez az átadási QR kód érvénytelen.',
  relayLinkExpired: 'Ez az átadási QR kód lejárt. Kérd meg a futárt, hogy mutasson újat.',
  relayLinkUsed: 'Ezt az átadási QR kódot már felhasználták, vagy a csomag azóta másnál van.',
  relayOwnParcel: 'A saját csomagodat nem veheted át magadtól.',
  relayNotHolder: 'Csak a csomagot épp szállító futár adhatja át.',
  custodyOverrideReasonRequired: 'Add meg a felelős módosításának okát.',
  custodyOverrideSameRunner: 'A csomag már ennél a futárnál van.',
  custodyOverrideNotInTransit: 'Csak szállítás alatt álló csomag felelőse módosítható.',
  invalidRelayPlace: 'Az átadás helye érvénytelen.',
  relayOfferPlaceOutsideHungary: 'A találkozási pontnak Magyarországon kell lennie.',
  relayOfferTimeInvalid: 'Adj meg érvényes időpontot.',
  relayOfferWindowInPast: 'Az időablak már elmúlt: adj meg egy későbbi időpontot.',
  relayOfferWindowOrder: 'Az időablak vége legyen későbbi, mint a kezdete.',
  relayOfferWindowTooLong: (hours: number) => `Az időablak legfeljebb ${hours} óra lehet.`,
  relayOfferLabelTooLong: (max: number) => `A hely leírása legfeljebb ${max} karakter lehet.`,
  relayOfferNotFound: 'Nincs ilyen továbbadási ajánlat.',
  relayOfferReservedForOther:
    'Ezt a csomagot egy másik futár foglalta le: az átadó futár visszavonhatja a továbbadást.',
  relayOfferUnavailable: 'Ezt a továbbadást már más lefoglalta, vagy már nem érvényes.',
} as const;
