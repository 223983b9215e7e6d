import type { Coordinates, Parcel } from '@csomag/domain/parcel';
import type { FastifyInstance } from 'fastify';

/** A point `metres` due north of `from` (a degree of latitude is ~111.2 km everywhere). */
export const northOf = (from: Coordinates, metres: number): Coordinates => ({
  lat: from.lat + metres / 111_194.93,
  lng: from.lng,
});

/** Picks a parcel up through the API as the runner whose cookie this is. */
export async function pickUp(app: FastifyInstance, cookie: string, parcelId: string): Promise<Parcel> {
  const response = await app.inject({ method: 'POST', url: `/api/parcels/${parcelId}/pickup`, headers: { cookie } });
  if (response.statusCode !== 200) throw new Error(`pickup failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** A parcel row as stored, to check that a refused call changed nothing. */
export const storedParcel = (app: FastifyInstance, parcelId: string) =>
  app.store.db.selectFrom('parcels').selectAll().where('id', '=', parcelId).executeTakeFirstOrThrow();

export const storedEvents = (app: FastifyInstance, parcelId: string) =>
  app.store.db
    .selectFrom('parcel_events')
    .select(['kind', 'actor_id', 'data'])
    .where('parcel_id', '=', parcelId)
    .orderBy('id')
    .execute();
