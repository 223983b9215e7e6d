import { type Migration, sql } from 'kysely';
import { matchKeyOf } from '../../modules/places/match-key.ts';
import type { MigrationDb } from './index.ts';

const BATCH = 1_000;

/** Every row's key computed again, a batch per statement (a CTE of ids and keys both stores read). */
async function rekey(db: MigrationDb, table: 'accounts' | 'parcels', source: string, target: string) {
  let after: string | number | null = null;
  for (;;) {
    let query = db.selectFrom(table).select(['id', source]).orderBy('id').limit(BATCH);
    if (after !== null) query = query.where('id', '>', after);
    const rows = (await query.execute()) as { id: string | number; [column: string]: unknown }[];
    if (rows.length === 0) return;
    // Typed in the statement: PostgreSQL reads a VALUES list's parameters as text.
    const idType = sql.raw(table === 'accounts' ? 'integer' : 'text');
    const values = sql.join(
      rows.map((row) => sql`(cast(${row.id} as ${idType}), cast(${matchKeyOf(String(row[source] ?? ''))} as text))`),
    );
    await sql`with keys(id, match_key) as (values ${values})
      update ${sql.table(table)} set ${sql.ref(target)} = (select match_key from keys where keys.id = ${sql.ref(`${table}.id`)})
      where id in (select id from keys)`.execute(db);
    after = rows.at(-1)?.id ?? null;
  }
}

/**
 * Receivers matched as people write addresses (issue 25): accounts' address_key and parcels'
 * receiver_key become the parsed address's key (places/match-key.ts), so "Dohány u. 20" finds
 * the parcels to "Dohány utca 20.". The columns and their indexes stay; only the values change.
 */
export const receiverMatchKeys: Migration = {
  async up(db: MigrationDb) {
    await rekey(db, 'accounts', 'address', 'address_key');
    await rekey(db, 'parcels', 'receiver_address', 'receiver_key');
  },
  async down() {
    // The folded text can be computed again from the addresses; nothing to undo in the schema.
  },
};
