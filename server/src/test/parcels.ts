import type { Parcel } from '@csomag/domain/parcel';
import type { FastifyInstance } from 'fastify';

let counter = 0;

/** A valid parcel create body that both ends of the offline gazetteer can place; override any field. */
export function buildParcelBody(overrides: Partial<Record<string, unknown>> = {}) {
  counter += 1;
  return {
    senderAddress: '6720 Szeged, Kárász utca 5',
    receiverAddress: `Debrecen, Piac utca ${counter}`,
    category: `Könyv ${Date.now().toString(36)}-${counter}`,
    weightGrams: 850,
    ...overrides,
  };
}

/** Sends a parcel through the API as the signed-in cookie's owner. */
export async function sendParcel(
  app: FastifyInstance,
  cookie: string,
  overrides: Partial<Record<string, unknown>> = {},
): Promise<Parcel> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/parcels',
    headers: { cookie },
    payload: buildParcelBody(overrides),
  });
  if (response.statusCode !== 201) throw new Error(`parcel create failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/**
 * Puts a parcel in transit with a runner who was last seen at a point. Stands in for the pickup
 * route of the runner module, so tracking and permissions can be tested on their own.
 */
export async function putInTransit(app: FastifyInstance, parcelId: string, runnerUserName: string) {
  const { db } = app.store;
  const runner = await db
    .selectFrom('accounts')
    .select('id')
    .where('user_name', '=', runnerUserName)
    .executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  await db
    .updateTable('accounts')
    .set({ last_lat: 47.5, last_lng: 19.05, last_accuracy: 10, located_at: at })
    .where('id', '=', runner.id)
    .execute();
  await db
    .updateTable('parcels')
    .set({ status: 'in_transit', runner_id: runner.id, picked_up_at: at })
    .where('id', '=', parcelId)
    .execute();
  await db
    .insertInto('parcel_events')
    .values({ parcel_id: parcelId, at, kind: 'picked_up', actor_id: runner.id, data: null })
    .execute();
  return { at };
}
