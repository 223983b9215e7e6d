import { type Migration, sql } from 'kysely';
import type { MigrationDb } from './index.ts';

const precision = (column: string) => sql`${sql.ref(column)} in ('street', 'settlement', 'manual')`;

/**
 * How precisely each end of a parcel is known (a geocoded street, a settlement or district centre,
 * or a pin placed by hand) — a delivery without QR needs the door — and how a runner reaches the
 * recipient. Additive only: parcels from before keep NULL (precision unknown, no contact).
 */
export const pointsAndContacts: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .alterTable('parcels')
      .addColumn('sender_precision', 'text', (c) => c.check(precision('sender_precision')))
      .execute();
    await db.schema
      .alterTable('parcels')
      .addColumn('receiver_precision', 'text', (c) => c.check(precision('receiver_precision')))
      .execute();
    await db.schema.alterTable('parcels').addColumn('recipient_name', 'text').execute();
    await db.schema.alterTable('parcels').addColumn('recipient_phone', 'text').execute();
    await db.schema
      .alterTable('geocode_cache')
      .addColumn('precision', 'text', (c) => c.check(precision('precision')))
      .execute();
  },
  async down(db: MigrationDb) {
    for (const column of ['sender_precision', 'receiver_precision', 'recipient_name', 'recipient_phone']) {
      await db.schema.alterTable('parcels').dropColumn(column).execute();
    }
    await db.schema.alterTable('geocode_cache').dropColumn('precision').execute();
  },
};
