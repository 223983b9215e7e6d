import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { migrateToLatest, openStore } from '../db/database.ts';
import { OsmFormatError } from '../modules/places/osm/osm-format-error.ts';
import { importPlaces } from '../modules/places/store.ts';

// npm run places:import -- FILE.osm.pbf | FILE.osm     (reads DATA_DIR or DATABASE_URL)
// Loads an OpenStreetMap extract's addresses, streets, settlements, stations and landmarks beside
// the import in use and swaps it in at once (docs/decisions/0028). Exit code 0: imported; 1: the
// file was refused and the import in use kept; 2: usage.
const usage = 'usage: npm run places:import -- FILE.osm.pbf | FILE.osm';
let positionals: string[];
try {
  ({ positionals } = parseArgs({ allowPositionals: true }));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  console.error(usage);
  process.exit(2);
}
const [file] = positionals;
if (!file || positionals.length !== 1) {
  console.error(usage);
  process.exit(2);
}

const config = loadConfig();
const store = openStore(config);
const started = performance.now();
try {
  await migrateToLatest(store);
  const { counts } = await importPlaces(store.db, file, {
    onProgress: (stage, count) => console.log(`${stage}: ${count.toLocaleString('en')}`),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `imported ${file} in ${seconds} s: ${counts.address} addresses, ${counts.street} streets, ` +
      `${counts.settlement} settlements, ${counts.station} stations, ${counts.landmark} landmarks`,
  );
} catch (error) {
  if (!(error instanceof OsmFormatError)) throw error;
  console.error(`${file} was refused, the places in use are kept: ${error.message}`);
  process.exitCode = 1;
} finally {
  await store.close();
}
