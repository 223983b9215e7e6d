import { messages } from '@csomag/domain/messages';
import type { PushDevice, PushPreferences, PushPreferencesUpdate, PushSubscriptionBody } from '@csomag/domain/push';
import { PUSH_KINDS } from '@csomag/domain/push-kinds';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/database.ts';
import { kindSwitches, switchKinds } from '../../db/muted-kinds.ts';
import type { Database } from '../../db/schema.ts';
import { refuse, refuseField } from '../../errors.ts';

/** An account's devices past this: the oldest is forgotten (a browser re-subscribing leaves old ones behind). */
export const MAX_DEVICES_PER_ACCOUNT = 20;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const IP_LITERAL = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/**
 * A push service is a named https host (FCM, Mozilla, Apple, WNS). Whatever else a browser could
 * be made to send — http, an IP address inside our network — would have the server POST to it.
 * Tests allow http on loopback (PUSH_ALLOW_LOOPBACK) for their fake push service.
 */
export function assertPushEndpoint(endpoint: string, allowLoopback: boolean) {
  const url = new URL(endpoint);
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (allowLoopback && loopback && (url.protocol === 'http:' || url.protocol === 'https:')) return;
  if (url.protocol !== 'https:' || loopback || IP_LITERAL.test(url.hostname) || url.username || url.password) {
    throw refuseField('invalid_body', 'endpoint', messages.pushEndpointInvalid);
  }
}

const presentDevice = (row: { id: number; label: string | null; created_at: string }): PushDevice => ({
  id: row.id,
  label: row.label,
  createdAt: row.created_at,
});

/**
 * Registers this device for the account. A browser has one endpoint per service worker: the same
 * endpoint again (a re-subscription, or another account signing in on that browser) replaces
 * the row, so a device is never told another account's news.
 */
export async function addDevice(
  db: Kysely<Database>,
  accountId: number,
  body: PushSubscriptionBody,
  label: string | null,
): Promise<PushDevice> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('push_subscriptions')
      .values({
        account_id: accountId,
        endpoint: body.endpoint,
        p256dh: body.keys.p256dh,
        auth: body.keys.auth,
        label,
        created_at: nowIso(),
      })
      .onConflict((oc) =>
        oc.column('endpoint').doUpdateSet((eb) => ({
          account_id: eb.ref('excluded.account_id'),
          p256dh: eb.ref('excluded.p256dh'),
          auth: eb.ref('excluded.auth'),
          label: eb.ref('excluded.label'),
          created_at: eb.ref('excluded.created_at'),
        })),
      )
      .returning(['id', 'label', 'created_at'])
      .executeTakeFirstOrThrow();
    const surplus = await trx
      .selectFrom('push_subscriptions')
      .select('id')
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .offset(MAX_DEVICES_PER_ACCOUNT)
      .limit(1000)
      .execute();
    if (surplus.length > 0) {
      await trx
        .deleteFrom('push_subscriptions')
        .where(
          'id',
          'in',
          surplus.map((s) => s.id),
        )
        .execute();
    }
    return presentDevice(row);
  });
}

export async function listDevices(db: Kysely<Database>, accountId: number): Promise<PushDevice[]> {
  const rows = await db
    .selectFrom('push_subscriptions')
    .select(['id', 'label', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('id', 'asc')
    .execute();
  return rows.map(presentDevice);
}

/** Another account's device is as unknown as one that never existed. */
export async function removeDevice(db: Kysely<Database>, accountId: number, id: number) {
  const removed = await db
    .deleteFrom('push_subscriptions')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw refuse('push_device_not_found', messages.pushDeviceNotFound);
}

export async function getPreferences(db: Kysely<Database>, accountId: number): Promise<PushPreferences> {
  return { kinds: await kindSwitches(db, 'push_muted_kinds', accountId, PUSH_KINDS) };
}

export async function updatePreferences(
  db: Kysely<Database>,
  accountId: number,
  update: PushPreferencesUpdate,
): Promise<PushPreferences> {
  await switchKinds(db, 'push_muted_kinds', accountId, update.kinds);
  return getPreferences(db, accountId);
}
