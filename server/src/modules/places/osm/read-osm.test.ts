import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_SIZE, detectOsmFormat, OsmFormatError, type PlaceRecord, readPlaces } from './read-osm.ts';
import { type OsmData, OsmPbfWriter, writeOsmPbf, writeOsmXml } from './write-osm.ts';

const address = (street: string, houseNumber: string, city = 'Budapest', postcode = '1114') => ({
  'addr:city': city,
  'addr:postcode': postcode,
  'addr:street': street,
  'addr:housenumber': houseNumber,
});

// A few blocks of Budapest and Hollókő, each element there for one rule.
const extract: OsmData = {
  nodes: [
    { id: 1, lat: 47.47886, lng: 19.05043, tags: address('Bartók Béla út', '15') },
    { id: 2, lat: 47.47912, lng: 19.05101, tags: { 'addr:place': 'Szentendrei sziget', 'addr:housenumber': '3' } },
    // A house number without a street or place is no address.
    { id: 3, lat: 47.4792, lng: 19.0511, tags: { 'addr:housenumber': '5' } },
    // Dohány utca 20: a building's corners.
    { id: 10, lat: 47.4958, lng: 19.0609 },
    { id: 11, lat: 47.4958, lng: 19.0611 },
    { id: 12, lat: 47.496, lng: 19.0611 },
    { id: 13, lat: 47.496, lng: 19.0609 },
    // Fehérvári út: a street without house numbers; its middle is node 23 by length, 22 by count.
    { id: 20, lat: 47.47, lng: 19.04 },
    { id: 21, lat: 47.4701, lng: 19.04 },
    { id: 22, lat: 47.4702, lng: 19.04 },
    { id: 23, lat: 47.475, lng: 19.04 },
    { id: 24, lat: 47.48, lng: 19.04 },
    {
      id: 30,
      lat: 47.50046,
      lng: 19.08386,
      tags: { railway: 'station', name: 'Keleti pályaudvar', public_transport: 'station' },
    },
    { id: 31, lat: 47.4971, lng: 19.0705, tags: { highway: 'bus_stop', name: 'Astoria' } },
    { id: 40, lat: 47.99719, lng: 19.59355, tags: { place: 'village', name: 'Hollókő', postal_code: '3176' } },
    { id: 41, lat: 47.4979, lng: 19.0402, tags: { place: 'city', name: 'Budapest' } },
    { id: 45, lat: 47.4934, lng: 19.0497, tags: { amenity: 'townhall', name: 'Fővárosi Városháza' } },
    // A named shop is no landmark.
    { id: 46, lat: 47.4935, lng: 19.0498, tags: { shop: 'bakery', name: 'Pék' } },
    // Kossuth út 1–9 odd, interpolated: the ends are addresses, 3, 5 and 7 lie between them.
    { id: 60, lat: 47.99, lng: 19.59, tags: address('Kossuth út', '1', 'Hollókő', '3176') },
    { id: 61, lat: 47.99, lng: 19.591 },
    { id: 62, lat: 47.99, lng: 19.592, tags: address('Kossuth út', '9', 'Hollókő', '3176') },
    // Nemzeti Múzeum: a museum drawn as an area.
    { id: 70, lat: 47.4908, lng: 19.0612 },
    { id: 71, lat: 47.4908, lng: 19.0622 },
    { id: 72, lat: 47.4918, lng: 19.0622 },
    { id: 73, lat: 47.4918, lng: 19.0612 },
    // A multipolygon building with an address: outer ring 80–83, inner ring 84–86.
    { id: 80, lat: 47.5, lng: 19.0 },
    { id: 81, lat: 47.5, lng: 19.002 },
    { id: 82, lat: 47.502, lng: 19.002 },
    { id: 83, lat: 47.502, lng: 19.0 },
    { id: 84, lat: 47.5005, lng: 19.0005 },
    { id: 85, lat: 47.5005, lng: 19.0006 },
    { id: 86, lat: 47.5006, lng: 19.0006 },
    { id: 90, lat: 47.41, lng: 19.1 },
    { id: 91, lat: 47.42, lng: 19.1 },
  ],
  ways: [
    {
      id: 100,
      refs: [10, 11, 12, 13, 10],
      tags: { building: 'yes', ...address('Dohány utca', '20', 'Budapest', '1074') },
    },
    { id: 101, refs: [20, 21, 22, 23, 24], tags: { highway: 'primary', name: 'Fehérvári út' } },
    { id: 102, refs: [60, 61, 62], tags: { 'addr:interpolation': 'odd' } },
    { id: 103, refs: [70, 71, 72, 73, 70], tags: { tourism: 'museum', name: 'Magyar Nemzeti Múzeum' } },
    { id: 104, refs: [80, 81, 82, 83, 80], tags: { building: 'yes' } },
    { id: 105, refs: [84, 85, 86, 84] },
    // Node 999 is not in the extract: the way keeps the nodes it has.
    { id: 106, refs: [90, 999, 91], tags: { highway: 'residential', name: 'Határ út' } },
    // No name, or a track: no street.
    { id: 107, refs: [90, 91], tags: { highway: 'residential' } },
    { id: 108, refs: [90, 91], tags: { highway: 'track', name: 'Dűlő' } },
  ],
  relations: [
    {
      id: 200,
      members: [
        { type: 'way', ref: 104, role: 'outer' },
        { type: 'way', ref: 105, role: 'inner' },
      ],
      tags: { type: 'multipolygon', building: 'yes', ...address('Váci út', '1', 'Budapest', '1133') },
    },
  ],
};

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'csomag-osm-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
function path(name: string): string {
  return join(folder, `${files++}-${name}`);
}

async function readAll(file: string): Promise<PlaceRecord[]> {
  const records: PlaceRecord[] = [];
  for await (const batch of readPlaces(file)) records.push(...batch);
  return records;
}

function sorted(records: PlaceRecord[]): PlaceRecord[] {
  return records
    .map((r) => JSON.stringify(r))
    .sort()
    .map((r) => JSON.parse(r) as PlaceRecord);
}

const writers = {
  pbf: (file: string, data: OsmData) => writeOsmPbf(file, data),
  xml: (file: string, data: OsmData) => writeOsmXml(file, data),
};

describe.each(['pbf', 'xml'] as const)('reading %s', (format) => {
  let records: PlaceRecord[];
  beforeAll(async () => {
    const file = path(format === 'pbf' ? 'budapest.osm.pbf' : 'budapest.osm');
    writers[format](file, extract);
    records = await readAll(file);
  });
  const find = (kind: string, key: 'name' | 'street', value: string) =>
    records.filter((r) => r.kind === kind && r[key] === value);

  it('takes address nodes with a street or a place, not a bare house number', () => {
    expect(find('address', 'street', 'Bartók Béla út')).toEqual([
      {
        kind: 'address',
        lat: 47.47886,
        lng: 19.05043,
        name: null,
        street: 'Bartók Béla út',
        houseNumber: '15',
        settlement: 'Budapest',
        postalCode: '1114',
        placeType: null,
      },
    ]);
    expect(find('address', 'street', 'Szentendrei sziget')).toMatchObject([{ houseNumber: '3', settlement: null }]);
    expect(records.filter((r) => r.lat === 47.4792)).toEqual([]);
  });

  it('puts a building address at the centre of its outline', () => {
    const [dohany] = find('address', 'street', 'Dohány utca');
    expect(dohany).toMatchObject({ houseNumber: '20', postalCode: '1074', lat: 47.4959, lng: 19.061 });
  });

  it('interpolates 1–9 odd into 1, 3, 5, 7, 9 along the line', () => {
    const kossuth = find('address', 'street', 'Kossuth út').sort((a, b) => a.lng - b.lng);
    expect(kossuth.map((r) => r.houseNumber)).toEqual(['1', '3', '5', '7', '9']);
    expect(kossuth.map((r) => r.lng)).toEqual([19.59, 19.5905, 19.591, 19.5915, 19.592]);
    expect(kossuth.every((r) => r.settlement === 'Hollókő' && r.postalCode === '3176' && r.lat === 47.99)).toBe(true);
  });

  it('gives a street without numbers one record at the node nearest its middle', () => {
    expect(find('street', 'name', 'Fehérvári út')).toMatchObject([{ lat: 47.475, lng: 19.04, placeType: 'primary' }]);
  });

  it('keeps a way whose node is missing from the extract, without that node', () => {
    expect(find('street', 'name', 'Határ út')).toHaveLength(1);
  });

  it('takes no street from a track or a nameless highway', () => {
    expect(records.filter((r) => r.kind === 'street').map((r) => r.name)).toEqual(['Fehérvári út', 'Határ út']);
  });

  it('takes settlements with their place type', () => {
    expect(find('settlement', 'name', 'Hollókő')).toMatchObject([
      { lat: 47.99719, lng: 19.59355, placeType: 'village', postalCode: '3176', settlement: null },
    ]);
    expect(find('settlement', 'name', 'Budapest')).toMatchObject([{ placeType: 'city' }]);
  });

  it('takes stations, a railway station once and not also as a landmark', () => {
    expect(records.filter((r) => r.name === 'Keleti pályaudvar')).toMatchObject([
      { kind: 'station', placeType: 'railway_station', lat: 47.50046, lng: 19.08386 },
    ]);
    expect(find('station', 'name', 'Astoria')).toMatchObject([{ placeType: 'bus_stop' }]);
  });

  it('takes named landmarks from nodes and areas, not every named shop', () => {
    expect(find('landmark', 'name', 'Fővárosi Városháza')).toMatchObject([{ placeType: 'amenity=townhall' }]);
    expect(find('landmark', 'name', 'Magyar Nemzeti Múzeum')).toMatchObject([
      { placeType: 'tourism=museum', lat: 47.4913, lng: 19.0617 },
    ]);
    expect(records.filter((r) => r.name === 'Pék')).toEqual([]);
  });

  it("puts a multipolygon building's address at the centre of its outer ring", () => {
    expect(find('address', 'street', 'Váci út')).toMatchObject([{ houseNumber: '1', lat: 47.501, lng: 19.001 }]);
  });
});

describe('PBF and XML', () => {
  it('give the same records for the same data', async () => {
    const pbf = path('same.osm.pbf');
    const xml = path('same.osm');
    writeOsmPbf(pbf, extract);
    writeOsmXml(xml, extract);
    const fromPbf = await readAll(pbf);
    expect(fromPbf).toHaveLength(17);
    expect(sorted(fromPbf)).toEqual(sorted(await readAll(xml)));
  });

  it('are told apart by content, not by the name', async () => {
    const pbf = path('really-pbf.osm');
    const xml = path('really-xml.osm.pbf');
    writeOsmPbf(pbf, extract);
    writeOsmXml(xml, extract);
    expect(await detectOsmFormat(pbf)).toBe('pbf');
    expect(await detectOsmFormat(xml)).toBe('xml');
    expect(sorted(await readAll(pbf))).toEqual(sorted(await readAll(xml)));
  });
});

describe('the PBF reader', () => {
  it('resolves ways whose nodes come in later blocks, in any order, uncompressed or not', async () => {
    const file = path('ways-first.osm.pbf');
    const writer = new OsmPbfWriter(file, { blockSize: 3, compress: false });
    for (const relation of extract.relations ?? []) writer.relation(relation);
    for (const way of extract.ways) writer.way(way);
    for (const node of [...extract.nodes].reverse()) writer.node(node);
    writer.close();
    const plain = path('plain.osm.pbf');
    writeOsmPbf(plain, extract);
    expect(sorted(await readAll(file))).toEqual(sorted(await readAll(plain)));
  });

  it('yields batches of at most BATCH_SIZE and reports its passes', async () => {
    const count = BATCH_SIZE * 2 + 500;
    const nodes = Array.from({ length: count }, (_, i) => ({
      id: i + 1,
      lat: 47 + i * 1e-5,
      lng: 19,
      tags: address('Fő utca', String(i + 1)),
    }));
    const file = path('many.osm.pbf');
    writeOsmPbf(file, { nodes, ways: [{ id: 1, refs: [1, 2, 3], tags: { highway: 'residential', name: 'Fő utca' } }] });
    const stages: string[] = [];
    const sizes: number[] = [];
    for await (const batch of readPlaces(file, { onProgress: (stage) => stages.push(stage) })) sizes.push(batch.length);
    expect(sizes).toEqual([BATCH_SIZE, BATCH_SIZE, 501]);
    expect([...new Set(stages)]).toEqual(['scan', 'coordinates', 'ways', 'relations']);
  });

  it('stops cleanly when the caller stops after the first batch', async () => {
    const nodes = Array.from({ length: BATCH_SIZE * 3 }, (_, i) => ({
      id: i + 1,
      lat: 47,
      lng: 19 + i * 1e-6,
      tags: address('Fő utca', String(i + 1)),
    }));
    const file = path('stopped.osm.pbf');
    writeOsmPbf(file, { nodes, ways: [] }, { blockSize: 1000 });
    for await (const batch of readPlaces(file)) {
      expect(batch).toHaveLength(BATCH_SIZE);
      break;
    }
    // The file was closed: it can be read again, whole.
    expect(await readAll(file)).toHaveLength(BATCH_SIZE * 3);
  });

  it('reads negative ids (unsaved JOSM data) and coordinates in the southern and western hemispheres', async () => {
    const data: OsmData = {
      nodes: [
        { id: -1, lat: -33.8688, lng: -151.2093 },
        { id: -2, lat: -33.8698, lng: -151.2093 },
      ],
      ways: [{ id: -10, refs: [-1, -2], tags: { highway: 'residential', name: 'George Street' } }],
    };
    const file = path('negative.osm.pbf');
    writeOsmPbf(file, data);
    expect(await readAll(file)).toMatchObject([{ kind: 'street', name: 'George Street', lat: -33.8688 }]);
  });
});

describe('a file that is not a readable extract', () => {
  const refused = async (file: string, message: RegExp) => {
    const batches: PlaceRecord[][] = [];
    const reading = (async () => {
      for await (const batch of readPlaces(file)) batches.push(batch);
    })();
    await expect(reading).rejects.toThrow(OsmFormatError);
    await expect(reading).rejects.toThrow(message);
    return batches;
  };

  function pbfBytes(): Buffer {
    const file = path('whole.osm.pbf');
    writeOsmPbf(file, extract, { blockSize: 10 });
    return readFileSync(file);
  }

  it('refuses an empty file', async () => {
    const file = path('empty.osm.pbf');
    writeFileSync(file, '');
    await refused(file, /empty/);
  });

  it('refuses random bytes', async () => {
    const file = path('random.osm.pbf');
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) % 251;
    writeFileSync(file, bytes);
    await refused(file, /not an OpenStreetMap file/);
  });

  it('refuses a JSON file', async () => {
    const file = path('places.osm');
    writeFileSync(file, JSON.stringify({ nodes: extract.nodes }));
    await refused(file, /not an OpenStreetMap file/);
  });

  it('refuses an XML file that is not OSM', async () => {
    const file = path('page.osm');
    writeFileSync(file, '<?xml version="1.0"?><html><body>Csomag</body></html>');
    await refused(file, /root element is <html>/);
  });

  it('refuses a PBF cut in the middle, before yielding anything', async () => {
    const file = path('truncated.osm.pbf');
    const bytes = pbfBytes();
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(await refused(file, /truncated PBF file/)).toEqual([]);
  });

  it('refuses a PBF whose blocks hold bad zlib data', async () => {
    const file = path('bad-zlib.osm.pbf');
    const bytes = Buffer.from(pbfBytes());
    // The file ends inside the last blob's zlib stream: spoil its end and its checksum.
    for (let i = bytes.length - 12; i < bytes.length; i++) bytes[i] = (bytes[i] ?? 0) ^ 0x5a;
    writeFileSync(file, bytes);
    await refused(file, /bad zlib data/);
  });

  it('refuses a PBF whose first blob is not the OSM header', async () => {
    const file = path('no-header.osm.pbf');
    const bytes = pbfBytes();
    const firstBlobEnd = 4 + bytes.readUInt32BE(0) + headerDataSize(bytes);
    writeFileSync(file, Buffer.concat([bytes.subarray(0, 4 + bytes.readUInt32BE(0)), bytes.subarray(firstBlobEnd)]));
    await refused(file, /OSM PBF|OpenStreetMap/);
  });

  it('refuses XML cut in the middle of a tag', async () => {
    const file = path('cut.osm');
    writeOsmXml(file, extract);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, text.indexOf('<tag k="name" v="Keleti') + 12));
    await refused(file, /XML is not well-formed/);
  });

  it('refuses XML that is not well-formed', async () => {
    const file = path('broken.osm');
    writeFileSync(file, '<?xml version="1.0"?>\n<osm version="0.6"><node id="1" lat="47" lon="19"></way></osm>');
    await refused(file, /XML is not well-formed/);
  });
});

/** The datasize of the first BlobHeader (field 3, a varint), read by hand. */
function headerDataSize(bytes: Buffer): number {
  const headerEnd = 4 + bytes.readUInt32BE(0);
  let at = 4;
  while (at < headerEnd) {
    const key = bytes[at++] ?? 0;
    if (key === 0x18) {
      let value = 0;
      let shift = 0;
      for (;;) {
        const b = bytes[at++] ?? 0;
        value += (b & 0x7f) * 2 ** shift;
        shift += 7;
        if (b < 0x80) return value;
      }
    }
    // Field 1 (type): a length-prefixed string.
    const length = bytes[at++] ?? 0;
    at += length;
  }
  throw new Error('no datasize in the first blob header');
}
