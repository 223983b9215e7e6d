/** The landing page's texts (SPEC §1): the hero, about us, useful facts and the testimonials. */
export const landing = {
  landingTitle: 'Csomagot küldenél? Egy szomszéd már viszi is.',
  landingLead:
    'Közösségi csomagküldés az egész országban: bárki feladhat csomagot, és bárki lehet futár. Városon belül akár percek alatt.',
  landingRegister: 'Regisztráció',
  landingSignIn: 'Bejelentkezés',

  landingAboutTitle: 'Rólunk',
  landingAbout:
    'A Csomagküldő összeköti azokat, akik csomagot küldenének, azokkal, akik amúgy is arra járnak. Nincs raktár, nincs várakozás: a futár felveszi a csomagot a feladónál, és egyenesen a címzetthez viszi – akár tömegközlekedéssel. Költséghatékony, gyors, és minden lépését követheted élőben a térképen.',
  landingGetStarted: 'Vágj bele',

  landingUsefulOnTheMap: 'Feladáskor a csomag azonnal megjelenik a futárok térképén.',
  landingUsefulTracking: 'A csomagazonosítóval bárki követheti a csomagot, regisztráció nélkül.',
  landingUsefulDelivery:
    'A futár csak a címtől 15 méteren belül adhatja le a csomagot, vagy QR kóddal, amelyet te hagysz jóvá.',
  landingUsefulAnyoneRuns: 'Futárnak bárki jelentkezhet: gyalog, biciklivel vagy tömegközlekedéssel is szállíthatsz.',
  landingUsefulUnits: 'A súlyt grammban add meg, a címet irányítószámmal együtt.',

  testimonialsTitle: 'Rólunk mondták',
  testimonialsPrevious: 'Előző',
  testimonialsNext: 'Következő',
  testimonialQuote: (quote: string) => `„${quote}”`,
  testimonialPosition: (current: number, total: number) => `${current} / ${total}`,
  testimonialAnnaQuote:
    'Reggel feladtam a nagymamámnak a születésnapi csomagot, délután már nála volt. Végig láttam a térképen, hol jár.',
  testimonialAnnaName: 'Kovács Anna',
  testimonialAnnaRole: 'Feladó, Budapest',
  testimonialGergelyQuote:
    'Vidékre küldtem iratokat, olcsóbban és gyorsabban, mint bárhol máshol. A QR kódos átadás pofonegyszerű.',
  testimonialGergelyName: 'Szabó Gergely',
  testimonialGergelyRole: 'Feladó, Szeged',
  testimonialRekaQuote:
    'Munkába menet villamosról viszek csomagokat. Azt szállítok, ami útba esik, és még keresek is vele.',
  testimonialRekaName: 'Tóth Réka',
  testimonialRekaRole: 'Futár, Budapest',
} as const;
