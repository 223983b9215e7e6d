/**
 * A synthetic Hungary-scale OpenStreetMap extract (.osm.pbf) for the places import: every
 * settlement of the national postal list as a place node spread over Hungary's bounding box,
 * named streets of a few nodes around them, address nodes along the streets, stations — written
 * block by block (dense nodes, 8,000 elements a block, zlib) without holding the addresses in memory.
 * Every name is one a person could type back: a settlement's streets are distinct and parse as a
 * street ("Kis Rózsa utca", never "Rózsa utca 2." whose "2." reads as a house number), and each
 * street has one of its settlement's postal codes (Budapest's spread over its 23 districts).
 * With --read it then times readPlaces on the file and prints the peak RSS. Prints figures; never
 * fails on a time (DESIGN §8).
 *
 *   node --import tsx bench/places/write-extract.ts OUT.osm.pbf [--addresses 3000000] [--streets 150000]
 *        [--stations 4000] [--building-addresses 0] [--background-buildings 0] [--seed 1] [--read] [--no-write]
 *
 * --building-addresses N writes N of the addresses as building outlines (closed ways of 4 corners
 * with the address on the way) instead of nodes; --background-buildings N adds N building outlines
 * without an address (4 untagged nodes each), as most of a real extract's ~35 M nodes are:
 * `--building-addresses 1000000 --background-buildings 6000000` comes near the real file's shape.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { type PlaceKind, readPlaces } from '../../server/src/modules/places/osm/read-osm.ts';
import { OsmPbfWriter } from '../../server/src/modules/places/osm/write-osm.ts';
import { seededRandom as random } from '../../server/src/seed/seeded-random.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    addresses: { type: 'string', default: '3000000' },
    streets: { type: 'string', default: '150000' },
    stations: { type: 'string', default: '4000' },
    'building-addresses': { type: 'string', default: '0' },
    'background-buildings': { type: 'string', default: '0' },
    seed: { type: 'string', default: '1' },
    read: { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
  },
});
const out = positionals[0];
if (!out || positionals.length !== 1) {
  console.error('usage: node --import tsx bench/places/write-extract.ts OUT.osm.pbf [--addresses N] [--read] …');
  process.exit(2);
}
const count = (name: keyof typeof values) => {
  const n = Number(values[name]);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
  return n;
};

// Hungary's bounding box.
const SOUTH = 45.74;
const NORTH = 48.59;
const WEST = 16.11;
const EAST = 22.9;
const METRES_PER_DEGREE_LAT = 111_320;
const METRES_PER_DEGREE_LNG = 111_320 * Math.cos((47.2 * Math.PI) / 180);

interface Settlement {
  name: string;
  /** Its postal codes in the national list; Budapest's of its 23 districts only (not its post boxes). */
  postcodes: string[];
  lat: number;
  lng: number;
  /** Share of streets; Budapest has many, a hamlet a few. */
  weight: number;
  /** How far from the centre its streets spread, in metres. */
  radius: number;
  streets: number;
}

const PEOPLE = [
  'Petőfi Sándor',
  'Kossuth Lajos',
  'Rákóczi Ferenc',
  'Ady Endre',
  'József Attila',
  'Dózsa György',
  'Arany János',
  'Széchenyi István',
  'Táncsics Mihály',
  'Bajcsy-Zsilinszky Endre',
  'Jókai Mór',
  'Vörösmarty Mihály',
  'Deák Ferenc',
  'Kölcsey Ferenc',
  'Hunyadi János',
  'Bem József',
  'Batthyány Lajos',
  'Móricz Zsigmond',
  'Mikszáth Kálmán',
  'Zrínyi Miklós',
  'Bethlen Gábor',
  'Szent István',
  'Damjanich János',
  'Kazinczy Ferenc',
  'Madách Imre',
  'Babits Mihály',
  'Radnóti Miklós',
  'Bartók Béla',
  'Kodály Zoltán',
  'Liszt Ferenc',
];
const WORDS = [
  'Fő',
  'Béke',
  'Rózsa',
  'Virág',
  'Erdő',
  'Kert',
  'Temető',
  'Iskola',
  'Templom',
  'Malom',
  'Vasút',
  'Liget',
  'Határ',
  'Szőlő',
  'Hegy',
  'Patak',
  'Tavasz',
  'Nyár',
  'Akácfa',
  'Hársfa',
];
// Each once: a settlement has one "Rózsa utca" (the first 50 streets of every settlement are utcák).
const KINDS = ['utca', 'út', 'tér', 'köz', 'sor', 'dűlő'];
const NAMES = [...WORDS, ...PEOPLE];
/** Words in front of a name once a settlement has used every name with every kind (Budapest). */
const PREFIXES = [
  'Kis',
  'Nagy',
  'Alsó',
  'Felső',
  'Új',
  'Régi',
  'Hosszú',
  'Rövid',
  'Külső',
  'Belső',
  'Közép',
  'Hátsó',
  'Első',
  'Öreg',
  'Szép',
  'Széles',
  'Keskeny',
  'Zöld',
  'Fehér',
  'Fekete',
  'Piros',
  'Sárga',
  'Kék',
  'Ezüst',
  'Csendes',
  'Napos',
  'Árnyas',
  'Vidám',
  'Dombos',
  'Meredek',
];

/** The i-th prefix: one word, then two ('Kis Nagy'), … — every i its own. */
function prefixOf(i: number): string {
  const word = PREFIXES[i % PREFIXES.length] as string;
  const rest = Math.floor(i / PREFIXES.length);
  return rest === 0 ? word : `${prefixOf(rest - 1)} ${word}`;
}

/** The street name a settlement's k-th street gets: distinct within the settlement, and read back as a street. */
function streetName(k: number): string {
  const base = NAMES[k % NAMES.length] as string;
  const kind = KINDS[Math.floor(k / NAMES.length) % KINDS.length] as string;
  const round = Math.floor(k / (NAMES.length * KINDS.length));
  return round === 0 ? `${base} ${kind}` : `${prefixOf(round - 1)} ${base} ${kind}`;
}

function loadSettlements(rand: () => number, streetCount: number): Settlement[] {
  const require = createRequire(import.meta.url);
  const codes = JSON.parse(
    readFileSync(require.resolve('hungarian-postal-codes/lib/postal-codes.json'), 'utf8'),
  ) as Record<string, string[]>;
  const byName = new Map<string, string[]>();
  for (const [postcode, names] of Object.entries(codes)) {
    for (const name of names) {
      // Budapest's 1XYZ codes above district 23 are post boxes, where nobody lives.
      const district = Number(postcode.slice(1, 3));
      if (name === 'Budapest' && !(district >= 1 && district <= 23)) continue;
      byName.set(name, [...(byName.get(name) ?? []), postcode]);
    }
  }
  const settlements: Settlement[] = [...byName].map(([name, postcodes]) => {
    // Log-normal sizes: most settlements are villages.
    const weight = Math.exp(gaussian(rand) * 1.1);
    return {
      name,
      postcodes,
      lat: SOUTH + rand() * (NORTH - SOUTH),
      lng: WEST + rand() * (EAST - WEST),
      weight,
      radius: 0,
      streets: 0,
    };
  });
  const budapest = settlements.find((s) => s.name === 'Budapest');
  const total = settlements.reduce((sum, s) => sum + s.weight, 0);
  if (budapest) {
    Object.assign(budapest, { lat: 47.4979, lng: 19.0402, weight: total * 0.12 });
  }
  const weights = settlements.reduce((sum, s) => sum + s.weight, 0);
  let assigned = 0;
  for (const s of settlements) {
    s.streets = Math.max(1, Math.round((s.weight / weights) * streetCount));
    assigned += s.streets;
    s.radius = 400 + 120 * Math.sqrt(s.streets);
  }
  // Rounding leaves the total near the asked count; the largest absorbs the difference.
  const largest = settlements.reduce((a, b) => (a.streets > b.streets ? a : b));
  largest.streets = Math.max(1, largest.streets + streetCount - assigned);
  return settlements;
}

/** The postal code of a settlement's k-th street: its codes in turn. */
const postcodeOf = (s: Settlement, k: number) => s.postcodes[k % s.postcodes.length] as string;

function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

function offset(lat: number, lng: number, northMetres: number, eastMetres: number): [number, number] {
  return [lat + northMetres / METRES_PER_DEGREE_LAT, lng + eastMetres / METRES_PER_DEGREE_LNG];
}

function writeExtract(): void {
  const addressCount = count('addresses');
  const streetCount = Math.max(1, count('streets'));
  const stationCount = count('stations');
  const buildingAddresses = Math.min(count('building-addresses'), addressCount);
  const backgroundBuildings = count('background-buildings');
  const rand = random(count('seed'));
  const settlements = loadSettlements(rand, streetCount);
  const started = performance.now();
  const writer = new OsmPbfWriter(out as string);

  let nodeId = 0;
  for (const s of settlements) {
    const place = s.name === 'Budapest' ? 'city' : s.streets > 60 ? 'town' : 'village';
    writer.node({
      id: ++nodeId,
      lat: s.lat,
      lng: s.lng,
      tags: { place, name: s.name, postal_code: s.postcodes[0] as string },
    });
  }

  // Streets: each keeps its first node id, node count, settlement and name for the way pass.
  const totalStreets = settlements.reduce((sum, s) => sum + s.streets, 0);
  const streetFirstNode = new Float64Array(totalStreets);
  const streetNodes = new Uint8Array(totalStreets);
  const streetSettlement = new Int32Array(totalStreets);
  const streetIndex = new Int32Array(totalStreets);
  // Building addresses: first corner id, street, house number — the ways come after all nodes.
  const buildingFirstNode = new Float64Array(buildingAddresses);
  const buildingStreet = new Int32Array(buildingAddresses);
  const buildingNumber = new Int32Array(buildingAddresses);
  let buildings = 0;
  let addressNodes = 0;
  const buildingShare = addressCount > 0 ? buildingAddresses / addressCount : 0;

  let street = 0;
  let addressesLeft = addressCount;
  settlements.forEach((s, settlementIndex) => {
    for (let k = 0; k < s.streets; k++, street++) {
      const distance = s.radius * Math.sqrt(rand());
      const bearing = rand() * 2 * Math.PI;
      let [lat, lng] = offset(s.lat, s.lng, distance * Math.cos(bearing), distance * Math.sin(bearing));
      const nodes = 3 + Math.floor(rand() * 4);
      const heading = rand() * 2 * Math.PI;
      const segment = 60 + rand() * 60;
      streetFirstNode[street] = nodeId + 1;
      streetNodes[street] = nodes;
      streetSettlement[street] = settlementIndex;
      streetIndex[street] = k;
      const points: [number, number][] = [];
      for (let i = 0; i < nodes; i++) {
        writer.node({ id: ++nodeId, lat, lng });
        points.push([lat, lng]);
        const turn = heading + (rand() - 0.5) * 0.6;
        [lat, lng] = offset(lat, lng, segment * Math.cos(turn), segment * Math.sin(turn));
      }
      // Addresses along the street, odd numbers on one side and even on the other, 15 m off it.
      const streetsLeft = totalStreets - street;
      const want = street === totalStreets - 1 ? addressesLeft : Math.round(addressesLeft / streetsLeft);
      const here = street === totalStreets - 1 ? want : Math.min(addressesLeft, Math.round(want * (0.5 + rand())));
      addressesLeft -= here;
      const name = streetName(k);
      const postcode = postcodeOf(s, k);
      for (let n = 1; n <= here; n++) {
        const along = (n - 0.5) / here;
        const at = along * (nodes - 1);
        const i = Math.min(nodes - 2, Math.floor(at));
        const t = at - i;
        const [aLat, aLng] = points[i] as [number, number];
        const [bLat, bLng] = points[i + 1] as [number, number];
        const side = n % 2 === 1 ? 15 : -15;
        const dLat = (bLat - aLat) * METRES_PER_DEGREE_LAT;
        const dLng = (bLng - aLng) * METRES_PER_DEGREE_LNG;
        const length = Math.hypot(dLat, dLng) || 1;
        const [hLat, hLng] = offset(
          aLat + (bLat - aLat) * t,
          aLng + (bLng - aLng) * t,
          (-dLng / length) * side,
          (dLat / length) * side,
        );
        if (buildings < buildingAddresses && rand() < buildingShare) {
          buildingFirstNode[buildings] = nodeId + 1;
          buildingStreet[buildings] = street;
          buildingNumber[buildings] = n;
          buildings++;
          for (const [north, east] of CORNERS) {
            const [cLat, cLng] = offset(hLat, hLng, north, east);
            writer.node({ id: ++nodeId, lat: cLat, lng: cLng });
          }
          continue;
        }
        writer.node({
          id: ++nodeId,
          lat: hLat,
          lng: hLng,
          tags: {
            'addr:city': s.name,
            'addr:postcode': postcode,
            'addr:street': name,
            'addr:housenumber': String(n),
          },
        });
        addressNodes++;
      }
    }
  });

  // Stations: a railway station or halt in the larger settlements, bus stops elsewhere.
  for (let i = 0; i < stationCount; i++) {
    const s = settlements[Math.floor(rand() * settlements.length)] as Settlement;
    const [lat, lng] = offset(s.lat, s.lng, (rand() - 0.5) * s.radius, (rand() - 0.5) * s.radius);
    const tags =
      i % 4 === 0
        ? { railway: s.streets > 20 ? 'station' : 'halt', name: `${s.name} vasútállomás`, public_transport: 'station' }
        : { highway: 'bus_stop', name: `${s.name}, ${streetName(Math.floor(rand() * s.streets))}` };
    writer.node({ id: ++nodeId, lat, lng, tags });
  }

  // Building outlines without an address, in the settlements.
  const backgroundFirstNode = nodeId + 1;
  for (let b = 0; b < backgroundBuildings; b++) {
    const s = settlements[Math.floor(rand() * settlements.length)] as Settlement;
    const distance = s.radius * Math.sqrt(rand());
    const bearing = rand() * 2 * Math.PI;
    const [lat, lng] = offset(s.lat, s.lng, distance * Math.cos(bearing), distance * Math.sin(bearing));
    for (const [north, east] of CORNERS) {
      const [cLat, cLng] = offset(lat, lng, north, east);
      writer.node({ id: ++nodeId, lat: cLat, lng: cLng });
    }
  }

  let wayId = 0;
  for (let i = 0; i < totalStreets; i++) {
    const first = streetFirstNode[i] as number;
    const refs = Array.from({ length: streetNodes[i] as number }, (_, j) => first + j);
    const k = streetIndex[i] as number;
    writer.way({ id: ++wayId, refs, tags: { highway: k === 0 ? 'primary' : 'residential', name: streetName(k) } });
  }
  for (let b = 0; b < buildings; b++) {
    const first = buildingFirstNode[b] as number;
    const streetAt = buildingStreet[b] as number;
    const s = settlements[streetSettlement[streetAt] as number] as Settlement;
    writer.way({
      id: ++wayId,
      refs: [first, first + 1, first + 2, first + 3, first],
      tags: {
        building: 'house',
        'addr:city': s.name,
        'addr:postcode': postcodeOf(s, streetIndex[streetAt] as number),
        'addr:street': streetName(streetIndex[streetAt] as number),
        'addr:housenumber': String(buildingNumber[b]),
      },
    });
  }
  for (let b = 0; b < backgroundBuildings; b++) {
    const first = backgroundFirstNode + b * 4;
    writer.way({ id: ++wayId, refs: [first, first + 1, first + 2, first + 3, first], tags: { building: 'yes' } });
  }
  writer.close();

  const seconds = (performance.now() - started) / 1000;
  const megabytes = statSync(out as string).size / 1e6;
  console.log(
    `wrote ${out}: ${megabytes.toFixed(1)} MB in ${seconds.toFixed(1)} s — ${writer.counts.nodes.toLocaleString('en')} nodes, ` +
      `${writer.counts.ways.toLocaleString('en')} ways, ${writer.counts.blocks.toLocaleString('en')} blocks`,
  );
  console.log(
    `  ${settlements.length.toLocaleString('en')} settlements, ${totalStreets.toLocaleString('en')} streets, ` +
      `${addressNodes.toLocaleString('en')} address nodes, ${buildings.toLocaleString('en')} address buildings, ` +
      `${stationCount.toLocaleString('en')} stations, ${backgroundBuildings.toLocaleString('en')} buildings without an address`,
  );
}

// A 10 × 10 m outline around a point.
const CORNERS: readonly [number, number][] = [
  [-5, -5],
  [-5, 5],
  [5, 5],
  [5, -5],
];

async function readExtract(): Promise<void> {
  const started = performance.now();
  const kinds: Record<PlaceKind, number> = { address: 0, street: 0, settlement: 0, station: 0, landmark: 0 };
  let batches = 0;
  // Each stage reports when it ends: its time is from the previous stage's last report to its own.
  const stageEnds = new Map<string, number>();
  for await (const batch of readPlaces(out as string, {
    onProgress: (stage) => stageEnds.set(stage, performance.now()),
  })) {
    batches++;
    for (const record of batch) kinds[record.kind]++;
  }
  const seconds = (performance.now() - started) / 1000;
  const peakMegabytes = process.resourceUsage().maxRSS / 1024;
  console.log(
    `read ${out} in ${seconds.toFixed(1)} s, peak RSS ${peakMegabytes.toFixed(0)} MB, ${batches.toLocaleString('en')} batches: ` +
      Object.entries(kinds)
        .map(([kind, n]) => `${n.toLocaleString('en')} ${kind}`)
        .join(', '),
  );
  let previous = started;
  const stages = [...stageEnds].map(([stage, end]) => {
    const text = `${stage} ${((end - previous) / 1000).toFixed(1)} s`;
    previous = end;
    return text;
  });
  console.log(`  passes: ${stages.join(', ')}`);
}

if (!values['no-write']) writeExtract();
if (values.read || values['no-write']) await readExtract();
