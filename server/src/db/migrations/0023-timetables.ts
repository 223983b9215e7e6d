import { type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * Timetables (issue 26, docs/decisions/0029): `npm run gtfs:import` compiles GTFS feeds into one
 * binary timetable (modules/timetable/codec.ts) and stores it here in chunks, so every instance —
 * one embedded, or many sharing PostgreSQL — loads the same one. An import writes its chunks under a
 * 'loading' row and becomes 'active' in the one update that retires the previous import, so a
 * reader sees the old timetable or the new one whole; a failed import's rows are swept by the next.
 */
export const timetables = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    const table = db.schema.createTable('timetables');
    await (dialect === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    )
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('loading', 'active', 'replaced')`))
      .addColumn('feeds', 'text', (c) => c.notNull())
      .addColumn('byte_length', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .execute();
    await db.schema
      .createTable('timetable_chunks')
      .addColumn('timetable_id', 'integer', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('data', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .addPrimaryKeyConstraint('timetable_chunks_pkey', ['timetable_id', 'seq'])
      .execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('timetable_chunks').execute();
    await db.schema.dropTable('timetables').execute();
  },
});
