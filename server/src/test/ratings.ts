import type { FastifyInstance } from 'fastify';
import { pickUp } from './delivery.ts';
import { type SignedIn, signUp } from './harness.ts';
import { sendParcel } from './parcels.ts';

export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

/** A request as `who` (or nobody), with a JSON body when one is given. */
export const callOn = (app: FastifyInstance, method: Method, url: string, who?: SignedIn, payload?: unknown) =>
  app.inject({
    method,
    url,
    ...(who ? { headers: { cookie: who.cookie } } : {}),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

let receiverCounter = 0;

/** A parcel sent by `sender`, carried by `runner`, delivered by the back office, and its receiver's account. */
export async function deliveredParcel(app: FastifyInstance, admin: SignedIn, sender: SignedIn, runner: SignedIn) {
  receiverCounter += 1;
  const receiverAddress = `4025 Debrecen, Piac utca ${200 + receiverCounter}`;
  const parcel = await sendParcel(app, sender.cookie, { receiverAddress });
  const receiver = await signUp(app, { address: receiverAddress });
  await pickUp(app, runner.cookie, parcel.id);
  const delivered = await callOn(app, 'POST', `/api/parcels/${parcel.id}/deliver`, admin, {});
  if (delivered.statusCode !== 200) throw new Error(`deliver failed: ${delivered.body}`);
  return { parcel, receiver };
}
