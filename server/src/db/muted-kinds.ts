import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** The tables that keep an account's switched-off kinds (push and mail notifications): absent = on. */
export type MutedKindsTable = 'push_muted_kinds' | 'mail_muted_kinds';

/** Every kind in `kinds` with whether it is on for the account. */
export async function kindSwitches<K extends string>(
  db: Kysely<Database>,
  table: MutedKindsTable,
  accountId: number,
  kinds: readonly K[],
): Promise<Record<K, boolean>> {
  const muted = await db.selectFrom(table).select('kind').where('account_id', '=', accountId).execute();
  const off = new Set(muted.map((m) => m.kind));
  return Object.fromEntries(kinds.map((kind) => [kind, !off.has(kind)])) as Record<K, boolean>;
}

/** Switches the kinds given on or off, in one transaction; the others stay as they are. */
export async function switchKinds(
  db: Kysely<Database>,
  table: MutedKindsTable,
  accountId: number,
  update: Readonly<Record<string, boolean | undefined>>,
) {
  const entries = Object.entries(update).filter((entry): entry is [string, boolean] => entry[1] !== undefined);
  const switchedOff = entries.filter(([, on]) => !on).map(([kind]) => kind);
  const switchedOn = entries.filter(([, on]) => on).map(([kind]) => kind);
  await db.transaction().execute(async (trx) => {
    if (switchedOn.length > 0) {
      await trx.deleteFrom(table).where('account_id', '=', accountId).where('kind', 'in', switchedOn).execute();
    }
    if (switchedOff.length > 0) {
      await trx
        .insertInto(table)
        .values(switchedOff.map((kind) => ({ account_id: accountId, kind })))
        .onConflict((oc) => oc.columns(['account_id', 'kind']).doNothing())
        .execute();
    }
  });
}
