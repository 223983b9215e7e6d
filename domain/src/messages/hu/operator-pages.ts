/**
 * The operator's pages (issue 29): what a page says until the operator publishes it, and the
 * example texts the demo data ships (an operator replaces them with their own).
 */
export const operatorPages = {
  operatorPageNotPublished:
    'Az üzemeltető ezt az oldalt még nem tette közzé. Ha kérdésed van, írj az ügyfélszolgálatnak.',
  operatorPageLoadFailed: 'Az oldalt most nem sikerült betölteni. Próbáld újra később.',
  demoPrivacyPage: `# Adatvédelmi tájékoztató (minta)

*Ez a bemutató adatokhoz tartozó minta. Az üzemeltető a saját tájékoztatóját teszi a helyére.*

## Kik vagyunk

A Csomagküldő közösségi csomagküldő szolgáltatás. Adatkezelő: **Minta Üzemeltető Kft.**, 1052 Budapest, Minta utca 1.

## Milyen adatokat kezelünk

- fiókadatok: név, felhasználónév, email cím, telefonszám, cím;
- a csomagok adatai: feladási és kiszállítási cím, a csomag útja és átadásai;
- a futárok helyzete, amíg csomagot szállítanak.

## Jogaid

Kérheted az adataid másolatát és a fiókod törlését. A törlés után az átadások lánca ellenőrizhető marad, de a neved és az elérhetőségeid sehol sem szerepelnek.
`,
  demoContactPage: `# Kapcsolat (minta)

*Ez a bemutató adatokhoz tartozó minta.*

- Email: ugyfelszolgalat@csomagkuldo.example
- Telefon: +36 1 234 5678
- Ügyfélfogadás: hétköznap 9–17 óráig
`,
  demoImprintPage: `# Impresszum (minta)

*Ez a bemutató adatokhoz tartozó minta.*

- Üzemeltető: Minta Üzemeltető Kft.
- Székhely: 1052 Budapest, Minta utca 1.
- Cégjegyzékszám: 01-09-000000
- Tárhelyszolgáltató: saját üzemeltetés
`,
} as const;
