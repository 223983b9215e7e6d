import { type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * The change log gives every committed change one id that means the same on every instance, in
 * commit order (docs/decisions/0011): a browser that reconnects anywhere with Last-Event-ID gets
 * what it missed, and an instance whose LISTEN connection dropped catches up from it. Rows are
 * kept for a while (change-feed.ts prunes them), not for ever.
 *
 * live_streams: the open event streams of every instance on PostgreSQL, so the per-client cap
 * counts across all of them; a row whose lease lapsed belongs to an instance that died.
 */
export const changeLog = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema
      .createTable('change_log')
      .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('created_ms', 'bigint', (c) => c.notNull())
      .addColumn('request_id', 'text')
      .addColumn('change', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('change_log_created').on('change_log').column('created_ms').execute();

    let streams = db.schema.createTable('live_streams');
    // A lost row only means a cap counted low until its lease lapses: no WAL needed.
    if (dialect === 'postgres') streams = streams.modifyFront(sql`unlogged`);
    await streams
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('instance_id', 'text', (c) => c.notNull())
      .addColumn('client_key', 'text', (c) => c.notNull())
      .addColumn('expires_ms', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('live_streams_client')
      .on('live_streams')
      .columns(['client_key', 'expires_ms'])
      .execute();
    await db.schema.createIndex('live_streams_instance').on('live_streams').column('instance_id').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('live_streams').execute();
    await db.schema.dropTable('change_log').execute();
  },
});
