import { type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { searchKeySql } from '../search-key.ts';
import type { MigrationDb } from './index.ts';

/**
 * The account search compares searchKey (issue 32): on PostgreSQL the name's trigram index moves
 * from lower() to the ASCII-only lowering SQLite's search table already holds, so both stores find
 * the same names. Where pg_trgm could not be created (0010) there is no index to move.
 * SQLite keeps its table: its lower() was ASCII-only all along.
 */
async function hasTrigrams(db: MigrationDb) {
  const { rows } = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  return rows.length > 0;
}

async function trigramOps(db: MigrationDb) {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  return `"${(rows[0]?.schema ?? 'public').replaceAll('"', '""')}".gin_trgm_ops`;
}

export const searchKey = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    if (dialect !== 'postgres' || !(await hasTrigrams(db))) return;
    const ops = await trigramOps(db);
    await sql
      .raw(
        `create index if not exists accounts_name_search_key on accounts using gin ((${searchKeySql('postgres', 'name')}) ${ops})`,
      )
      .execute(db);
    await sql`drop index if exists accounts_name_trigrams`.execute(db);
    await sql`analyze accounts`.execute(db);
  },
  async down(db: MigrationDb) {
    if (dialect !== 'postgres' || !(await hasTrigrams(db))) return;
    const ops = await trigramOps(db);
    const lowered = searchKeySql('sqlite', 'name'); // lower() over the same replacements: 0010's expression
    await sql
      .raw(`create index if not exists accounts_name_trigrams on accounts using gin ((${lowered}) ${ops})`)
      .execute(db);
    await sql`drop index if exists accounts_name_search_key`.execute(db);
  },
});
