import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../db/change-feed.ts';
import type { Database } from '../../db/schema.ts';
import { returnFromDropPoint } from '../parcels/changes.ts';

/** How often the collection deadline is looked at. */
export const DROP_POINT_SWEEP_MS = 15 * 60 * 1000;
const BATCH = 200;

/**
 * Parcels waiting at a drop point longer than `days` become their sender's to collect there
 * (changes.ts returnFromDropPoint, one change each). Candidates are read first: a sweep with
 * nothing to do writes nothing. Every instance may run it: a parcel another sweep turned is
 * refused by its seq. Answers how many turned.
 */
export async function returnUncollectedParcels(
  db: Kysely<Database>,
  changes: Pick<ChangeFeed, 'transaction'>,
  days: number,
  now = Date.now(),
) {
  const cutoff = new Date(now - days * 24 * 60 * 60 * 1000).toISOString();
  let turned = 0;
  for (;;) {
    const due = await db
      .selectFrom('parcels')
      .select(['id', 'custody_seq'])
      .where('drop_point_id', 'is not', null)
      .where('status', '=', 'at_drop_point')
      .where('returning', '=', 0)
      .where('at_drop_point_since', '<', cutoff)
      .limit(BATCH)
      .execute();
    for (const parcel of due) {
      if (await returnFromDropPoint(changes, parcel.id, parcel.custody_seq, { uncollectedDays: days })) turned += 1;
    }
    if (due.length < BATCH) return turned;
  }
}

/** The collection deadline, at start and every quarter of an hour, on every instance. */
export const dropPointDeadline = fp(async (app) => {
  let timer: NodeJS.Timeout | undefined;
  const sweep = () =>
    returnUncollectedParcels(app.store.db, app.changeFeed, app.config.dropPointHoldDays)
      .then((turned) => {
        if (turned > 0) app.log.info({ turned }, 'parcels not collected at drop points go back to their senders');
      })
      .catch((err) => app.log.warn({ err }, 'the drop point collection deadline failed'));
  app.addHook('onReady', async () => {
    void sweep();
    timer = setInterval(() => void sweep(), DROP_POINT_SWEEP_MS).unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
});
