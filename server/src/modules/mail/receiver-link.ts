import { RECEIVER_LINK_HEADER } from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { refuse } from '../../errors.ts';
import { assertGuard, signedIn } from '../../plugins/auth.ts';
import {
  mayByReceiverLink,
  type ParcelAction,
  type Party,
  parcelRefusal,
  type ReceiverByLink,
} from '../parcels/policy.ts';
import { type MailKeys, mailKeys, receiverLinkValid } from './parcel-mail.ts';

/** The longest key a link carries; anything longer is not one (checked before it is verified). */
const LINK_KEY_MAX = 200;

/**
 * The receiver without an account, proven by the key in their mail's link (issue 29) for
 * `parcelId`; 403 `receiver_link_invalid` for a wrong key, another parcel's or an unknown parcel —
 * the same answer, so the link says nothing about parcels it is not for.
 */
export async function receiverByLink(
  db: Kysely<Database>,
  keys: MailKeys,
  parcelId: unknown,
  token: string,
): Promise<ReceiverByLink> {
  const id = typeof parcelId === 'string' ? parcelId : '';
  const parcel =
    id && token.length <= LINK_KEY_MAX
      ? await db.selectFrom('parcels').select('receiver_email').where('id', '=', id).executeTakeFirst()
      : undefined;
  if (!parcel?.receiver_email || !receiverLinkValid(keys, id, parcel.receiver_email, token)) {
    throw refuse('receiver_link_invalid', messages.receiverLinkInvalid);
  }
  return { receiverOf: id };
}

/**
 * A parcel route's guard that also lets in the receiver by their link: with the link's key in the
 * X-Receiver-Link header the request is theirs (the key checked here, against the route's `:id`);
 * without it, the signed-in account's, as `parcelGuard(action)` decides. The service asks the
 * policy again with the parcel in hand (`assertPartyMay`).
 */
export function parcelGuardOrLink(app: FastifyInstance, action: ParcelAction): preHandlerHookHandler {
  if (!mayByReceiverLink(action)) throw new Error(`${action} is not for the receiver's link`);
  const keys = mailKeys(app.config.sessionSecret);
  return async (request) => {
    const token = request.headers[RECEIVER_LINK_HEADER];
    if (typeof token === 'string') {
      const params = request.params as { id?: unknown };
      request.receiverLink = await receiverByLink(app.store.db, keys, params.id, token);
      return;
    }
    assertGuard(request, (account) => parcelRefusal(account, action));
  };
}

/** Who asks in a route guarded by `parcelGuardOrLink`: the receiver by link, else the signed-in account. */
export const partyOf = (request: FastifyRequest): Party => request.receiverLink ?? signedIn(request);
