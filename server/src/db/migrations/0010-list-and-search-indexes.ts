import { type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { searchKeySql } from '../search-key.ts';
import type { MigrationDb } from './index.ts';

/**
 * What the lists needed at a million parcels (docs/decisions/0015): the incoming list and the
 * back office's sender-and-runner filter walk an index in (created_at, id) order instead of
 * sorting or intersecting, and the account search (name or user name containing a text) finds its
 * matches from a trigram index instead of folding every account's name: SQLite's FTS5 trigram
 * tokenizer, PostgreSQL's pg_trgm. Additive only (docs/decisions/0010).
 */

/**
 * An account's name as the search folded it when this ran: the accented letters replaced, then
 * lower() — on PostgreSQL too, until 0019 moved its index to ASCII-only lowering (search-key.ts).
 * SQLite's search table holds exactly this text; a letter added to domain's list needs a
 * migration that folds the stored names again (directory.test.ts checks every letter is found).
 */
const folded = (column: string) => searchKeySql('sqlite', column);

/**
 * SQLite: an FTS5 trigram table of each account's folded name and lower-case user name, kept by
 * triggers. Case-sensitive on text already folded, so a phrase matches exactly where the LIKE
 * would (SQLite's lower() and LIKE fold only ASCII; the pattern is folded and lower-case).
 */
async function sqliteSearch(db: MigrationDb) {
  await sql`create virtual table accounts_search using fts5(
    name_key, user_key, tokenize = 'trigram case_sensitive 1')`.execute(db);
  const add = `insert into accounts_search(rowid, name_key, user_key) values (new.id, ${folded('new.name')}, lower(new.user_name));`;
  const remove = 'delete from accounts_search where rowid = old.id;';
  await sql.raw(`create trigger accounts_search_insert after insert on accounts begin ${add} end`).execute(db);
  await sql.raw(`create trigger accounts_search_delete after delete on accounts begin ${remove} end`).execute(db);
  await sql
    .raw(`create trigger accounts_search_update after update of name, user_name on accounts begin ${remove} ${add} end`)
    .execute(db);
  await sql
    .raw(
      `insert into accounts_search(rowid, name_key, user_key) select id, ${folded('name')}, lower(user_name) from accounts`,
    )
    .execute(db);
}

/** Any fixed number: migrations of several schemas in one database take turns creating the extension. */
const EXTENSION_LOCK = 7_431_015;

/**
 * PostgreSQL: pg_trgm's GIN indexes on the folded name and the lower-case user name, which a
 * LIKE '%…%' can use. pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create
 * it. Where it cannot be created, the search keeps scanning, as before, rather than the upgrade failing.
 */
async function postgresSearch(db: MigrationDb) {
  await sql`select pg_advisory_xact_lock(${EXTENSION_LOCK})`.execute(db);
  await sql`savepoint pg_trgm`.execute(db);
  try {
    // In public, never in a schema of its own that could be dropped with everything using it.
    await sql`create extension if not exists pg_trgm schema public`.execute(db);
    await sql`release savepoint pg_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint pg_trgm`.execute(db);
    return;
  }
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  const schema = rows[0]?.schema ?? 'public';
  const ops = `"${schema.replaceAll('"', '""')}".gin_trgm_ops`;
  await sql
    .raw(`create index if not exists accounts_name_trigrams on accounts using gin ((${folded('name')}) ${ops})`)
    .execute(db);
  await sql
    .raw(`create index if not exists accounts_user_name_trigrams on accounts using gin ((lower(user_name)) ${ops})`)
    .execute(db);
}

/**
 * SQLite weighs indexes by what ANALYZE wrote down; where it has run (the scale seed runs it), an
 * index without figures looks better than it is (every sender's list sorted in memory through the
 * sender-and-runner index). Where it never ran, every index goes by the same estimates.
 */
async function analyzeNewIndexes(db: MigrationDb) {
  const { rows } = await sql`select 1 from sqlite_master where name = 'sqlite_stat1'`.execute(db);
  if (rows.length === 0) return;
  await sql`analyze parcels_receiver_created`.execute(db);
  await sql`analyze parcels_sender_runner_created`.execute(db);
}

export const listAndSearchIndexes = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    // Replaces (receiver_key, created_at) for the incoming list; that one goes in a later release.
    await db.schema
      .createIndex('parcels_receiver_created')
      .ifNotExists()
      .on('parcels')
      .columns(['receiver_key', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('parcels_sender_runner_created')
      .ifNotExists()
      .on('parcels')
      .columns(['sender_id', 'runner_id', 'created_at', 'id'])
      .execute();
    if (dialect === 'postgres') {
      await postgresSearch(db);
      // An expression index has no statistics until the table is analysed.
      await sql`analyze accounts`.execute(db);
    } else {
      await sqliteSearch(db);
      await analyzeNewIndexes(db);
    }
  },
  async down(db: MigrationDb) {
    if (dialect === 'postgres') {
      await sql`drop index if exists accounts_user_name_trigrams`.execute(db);
      await sql`drop index if exists accounts_name_trigrams`.execute(db);
    } else {
      for (const name of ['accounts_search_insert', 'accounts_search_delete', 'accounts_search_update']) {
        await sql`drop trigger ${sql.id(name)}`.execute(db);
      }
      await sql`drop table accounts_search`.execute(db);
    }
    await db.schema.dropIndex('parcels_sender_runner_created').execute();
    await db.schema.dropIndex('parcels_receiver_created').execute();
  },
});
