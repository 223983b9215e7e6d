/** Migrates the PostgreSQL at DATABASE_URL, in the schema PG_SCHEMA, to the latest (bench/index-usage.sh). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest, openStore } from '../../server/src/db/database.ts';

const store = openStore({
  dataDir: mkdtempSync(join(tmpdir(), 'csomag-migrate-')),
  databaseUrl: process.env.DATABASE_URL,
  pgSchema: process.env.PG_SCHEMA,
});
await migrateToLatest(store);
await store.close();
