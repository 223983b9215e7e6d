import { addressKey } from '@csomag/domain/address';
import type { Migration } from 'kysely';
import type { MigrationDb } from './index.ts';

const BATCH = 500;

/**
 * The pickup address's key (domain's addressKey: no case, accents or punctuation), so a runner's
 * settlement filter matches 'pecs' to 'Pécs' on both stores. Additive: existing rows are keyed
 * here in JS, in batches, because neither store can strip accents the same way in SQL.
 */
export const senderKey: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .alterTable('parcels')
      .addColumn('sender_key', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    for (let after = ''; ; ) {
      const rows: { id: string; sender_address: string }[] = await db
        .selectFrom('parcels')
        .select(['id', 'sender_address'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      for (const row of rows) {
        await db
          .updateTable('parcels')
          .set({ sender_key: addressKey(row.sender_address) })
          .where('id', '=', row.id)
          .execute();
      }
      const last = rows.at(-1);
      if (!last || rows.length < BATCH) break;
      after = last.id;
    }
  },
  async down(db: MigrationDb) {
    await db.schema.alterTable('parcels').dropColumn('sender_key').execute();
  },
};
