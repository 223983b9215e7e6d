import type { Parcel } from '@csomag/domain/parcel';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { pickUp } from './delivery.ts';
import { requestAs, type SignedIn, signInSuperadmin, signUp } from './harness.ts';
import { sendParcel } from './parcels.ts';

/**
 * The people of a delivery that may not go to plan (issue 28's tests): the back office, a sender,
 * a receiver signed up at the parcel's address, its runner, and someone of each kind it is not.
 */
export async function signUpCast(app: FastifyInstance) {
  return {
    admin: await signInSuperadmin(app),
    sender: await signUp(app),
    receiver: await signUp(app, { address: `Debrecen, Piac utca ${Date.now() % 100000}` }),
    runner: await signUp(app, { role: 'runner' }),
    otherRunner: await signUp(app, { role: 'runner' }),
    otherUser: await signUp(app),
  };
}
export type Cast = Awaited<ReturnType<typeof signUpCast>>;

/** A parcel from the cast's sender to its receiver's address, picked up by its runner. */
export async function carriedFor(
  app: FastifyInstance,
  cast: Cast,
  body: Parameters<typeof sendParcel>[2] = {},
): Promise<Parcel> {
  const parcel = await sendParcel(app, cast.sender.cookie, { receiverAddress: cast.receiver.account.address, ...body });
  await pickUp(app, cast.runner.cookie, parcel.id);
  return parcel;
}

/** A receiver's door in Debrecen and a shop around the corner from it. */
export const DEBRECEN_DOOR = { lat: 47.5295, lng: 21.6255 };
export const DEBRECEN_SHOP = { lat: 47.5316, lng: 21.6273 };

/** A drop point as the back office adds it (POST /api/drop-points): the corner shop, open always, staffed by `staff`. */
export const dropPointBody = (staff: string, overrides: Record<string, unknown> = {}) => ({
  name: 'Sarki trafik',
  kind: 'shop',
  address: '4025 Debrecen, Piac utca 20',
  location: DEBRECEN_SHOP,
  openingHours: 'H-V 0:00-24:00',
  staff: [staff],
  ...overrides,
});

/** POST and GET as a signed-in person, or signed out (null). `app` is read at each call (made in beforeAll). */
export function requestsOf(app: () => FastifyInstance) {
  return {
    post: (who: SignedIn | null, url: string, payload: object = {}): Promise<LightMyRequestResponse> =>
      who ? requestAs(app(), who, 'POST', url, payload) : app().inject({ method: 'POST', url, payload }),
    get: (who: SignedIn | null, url: string): Promise<LightMyRequestResponse> =>
      app().inject({ method: 'GET', url, ...(who ? { headers: { cookie: who.cookie } } : {}) }),
  };
}
