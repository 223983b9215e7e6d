import { open } from 'node:fs/promises';
import type { PlaceRecord } from './extract.ts';
import { OsmFormatError } from './osm-format-error.ts';
import { readPbfPlaces } from './pbf.ts';
import { readXmlPlaces } from './xml.ts';

export type { PlaceKind, PlaceRecord } from './extract.ts';
export { OsmFormatError } from './osm-format-error.ts';

/** Called as reading goes: the stage ('scan', 'coordinates', 'ways', 'relations'; 'xml' for XML) and elements read in it. */
export type ProgressListener = (stage: string, count: number) => void;

export interface ReadPlacesOptions {
  onProgress?: ProgressListener;
}

export const BATCH_SIZE = 10_000;

export type OsmFormat = 'pbf' | 'xml';

/**
 * The places of an OpenStreetMap extract (.osm.pbf or .osm XML, told apart by content), in batches
 * of at most BATCH_SIZE so the caller can write them in short transactions. Throws OsmFormatError
 * for a file that is not OSM, truncated or corrupt — before the first batch when the damage is in
 * the file's layout, otherwise midway: the caller keeps its previous import.
 */
export async function* readPlaces(file: string, options: ReadPlacesOptions = {}): AsyncGenerator<PlaceRecord[]> {
  const format = await detectOsmFormat(file);
  const places = format === 'pbf' ? readPbfPlaces(file, options.onProgress) : readXmlPlaces(file, options.onProgress);
  let pending: PlaceRecord[] = [];
  for await (const records of places) {
    for (const record of records) {
      pending.push(record);
      if (pending.length === BATCH_SIZE) {
        yield pending;
        pending = [];
      }
    }
  }
  if (pending.length > 0) yield pending;
}

/** 'pbf' when the first blob header says OSMHeader, 'xml' when the text starts with `<?xml` or `<osm`. */
export async function detectOsmFormat(file: string): Promise<OsmFormat> {
  const head = Buffer.alloc(512);
  const handle = await open(file, 'r');
  let length: number;
  try {
    ({ bytesRead: length } = await handle.read(head, 0, head.length, 0));
  } finally {
    await handle.close();
  }
  if (length === 0) throw new OsmFormatError('the file is empty');
  const bytes = head.subarray(0, length);
  // BlobHeader: a 4-byte length, then field 1 (type) = "OSMHeader".
  if (length >= 15 && bytes.readUInt32BE(0) < 64 * 1024 && bytes.subarray(4, 32).includes('OSMHeader')) return 'pbf';
  const text = bytes
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text.startsWith('<?xml') || text.startsWith('<osm')) return 'xml';
  throw new OsmFormatError('not an OpenStreetMap file: neither an .osm.pbf blob nor <?xml / <osm at its start');
}
