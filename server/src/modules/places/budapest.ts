import { ROMAN_NUMERALS } from '@csomag/domain/address-parse';
import { messages } from '@csomag/domain/messages';

/** Centres (around the district hall) of Budapest's 23 districts; a postcode 1XYZ is district XY. */
export const BUDAPEST_DISTRICTS: readonly [lat: number, lng: number][] = [
  [47.4971, 19.0396], // I. Budavár
  [47.5198, 19.0222], // II.
  [47.5416, 19.045], // III. Óbuda-Békásmegyer
  [47.5618, 19.0891], // IV. Újpest
  [47.4996, 19.0512], // V. Belváros-Lipótváros
  [47.5037, 19.0658], // VI. Terézváros
  [47.5005, 19.073], // VII. Erzsébetváros
  [47.4892, 19.0701], // VIII. Józsefváros
  [47.4797, 19.0767], // IX. Ferencváros
  [47.4846, 19.1376], // X. Kőbánya
  [47.476, 19.036], // XI. Újbuda
  [47.4919, 19.0149], // XII. Hegyvidék
  [47.5298, 19.0807], // XIII.
  [47.517, 19.105], // XIV. Zugló
  [47.5626, 19.1168], // XV.
  [47.5148, 19.1703], // XVI.
  [47.48, 19.2539], // XVII. Rákosmente
  [47.4442, 19.176], // XVIII. Pestszentlőrinc-Pestszentimre
  [47.4529, 19.1494], // XIX. Kispest
  [47.4367, 19.1009], // XX. Pesterzsébet
  [47.4222, 19.0664], // XXI. Csepel
  [47.427, 19.0402], // XXII. Budafok-Tétény
  [47.3979, 19.1149], // XXIII. Soroksár
];

/** "Budapest XI. kerület". */
export const districtLabel = (district: number) =>
  messages.budapestDistrict((ROMAN_NUMERALS[district - 1] ?? '').toUpperCase());
