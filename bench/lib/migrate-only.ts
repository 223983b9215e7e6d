/** Migrates the store the parent names (BENCH_DATABASE_URL, BENCH_PG_SCHEMA) and nothing else (bench/index-usage.sh). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printFromStore } from './child-store.ts';

await printFromStore(mkdtempSync(join(tmpdir(), 'csomag-migrate-')), async () => 'migrated');
