import { accountResponseSchema } from '@csomag/domain/account';
import { type Parcel, parcelSchema } from '@csomag/domain/parcel';
import { pushMessage } from '@csomag/domain/push-kinds';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { buildRegistration } from '../test/harness.ts';
import { type Instance, removeStores, request, startInstance, storeEnvironment } from '../test/instances.ts';
import { parsePrometheus } from '../test/prometheus.ts';
import { type FakePushService, startFakePushService } from '../test/push-service.ts';

/**
 * Two real instances on one PostgreSQL database both hear every change through LISTEN; each
 * change's notifications must still leave once, from whichever instance claimed the change
 * (docs/decisions/0018). A fake push service on 127.0.0.1 counts what arrives.
 */

const METRICS_TOKEN = 'push-integration-metrics-token';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Person {
  userName: string;
  cookie: string;
}

async function register(on: Instance, overrides: Record<string, unknown> = {}): Promise<Person> {
  const response = await request(on.url, '/api/auth/register', { method: 'POST', body: buildRegistration(overrides) });
  if (response.status !== 201 || !response.cookie) throw new Error(`register: ${response.status} ${response.text}`);
  return { userName: accountResponseSchema.parse(response.json).account.userName, cookie: response.cookie };
}

async function sendParcel(on: Instance, sender: Person, receiverAddress: string): Promise<Parcel> {
  const response = await request(on.url, '/api/parcels', {
    method: 'POST',
    cookie: sender.cookie,
    body: { senderAddress: '1052 Budapest, Váci utca 12', receiverAddress, category: 'Könyv', weightGrams: 850 },
  });
  if (response.status !== 201) throw new Error(`parcel: ${response.status} ${response.text}`);
  return parcelSchema.parse(response.json);
}

/** This instance's count of notifiable changes by what it did with them (csomagkuldo_push_changes_total). */
async function pushChanges(on: Instance): Promise<Record<string, number>> {
  const response = await request(on.url, '/api/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (response.status !== 200) throw new Error(`metrics on ${on.name}: ${response.status}`);
  const counts: Record<string, number> = {};
  for (const sample of parsePrometheus(response.text).samples('csomagkuldo_push_changes_total')) {
    counts[String(sample.labels.outcome)] = sample.value;
  }
  return counts;
}

/** Waits until the instance has handled `count` notifiable changes, whether it claimed them or another did. */
async function handled(on: Instance, count: number) {
  for (;;) {
    const counts = await pushChanges(on);
    if ((counts.sent ?? 0) + (counts.claimed_elsewhere ?? 0) >= count) return counts;
    await sleep(50);
  }
}

describe.runIf(process.env.TEST_DATABASE_URL)('push notifications from two instances on one PostgreSQL', () => {
  let a: Instance;
  let b: Instance;
  let service: FakePushService;
  beforeAll(async () => {
    service = await startFakePushService();
    const vapid = webpush.generateVAPIDKeys();
    const env = {
      ...(await storeEnvironment('postgres', 'push')),
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: 'mailto:uzemeltetes@example.hu',
      PUSH_ALLOW_LOOPBACK: '1',
      METRICS_TOKEN,
    };
    a = await startInstance({ name: 'push-a', env });
    b = await startInstance({ name: 'push-b', env });
  });
  afterAll(async () => {
    await removeStores();
    await service.close();
  });

  it('sends one notification per change, not one per instance', async () => {
    const receiverAddress = 'Debrecen, Piac utca 1234';
    const sender = await register(a);
    const receiver = await register(b, { address: receiverAddress });
    const runner = await register(b, { role: 'runner' });
    const senderDevice = service.device();
    const receiverDevice = service.device();
    for (const [on, who, device] of [
      [a, sender, senderDevice],
      [b, receiver, receiverDevice],
    ] as const) {
      const response = await request(on.url, '/api/me/push-devices', {
        method: 'POST',
        cookie: who.cookie,
        body: device.subscription,
      });
      expect(response.status).toBe(201);
    }

    const parcels: Parcel[] = [];
    for (let i = 0; i < 6; i++) {
      const on = i % 2 === 0 ? a : b;
      const parcel = await sendParcel(on, sender, receiverAddress);
      const pickup = await request((i % 3 === 0 ? a : b).url, `/api/parcels/${parcel.id}/pickup`, {
        method: 'POST',
        cookie: runner.cookie,
      });
      expect(pickup.status).toBe(200);
      parcels.push(parcel);
    }

    // Both instances have dealt with all six pickups: anything either would send has been sent.
    const [countsA, countsB] = await Promise.all([handled(a, parcels.length), handled(b, parcels.length)]);
    expect((countsA.sent ?? 0) + (countsB.sent ?? 0)).toBe(parcels.length);
    expect((countsA.claimed_elsewhere ?? 0) + (countsB.claimed_elsewhere ?? 0)).toBe(parcels.length);
    await service.waitForPushes(senderDevice, parcels.length);
    await service.waitForPushes(receiverDevice, parcels.length);
    const toSender = service.pushesTo(senderDevice).map((push) => senderDevice.open(push.body));
    const toReceiver = service.pushesTo(receiverDevice).map((push) => receiverDevice.open(push.body));
    expect(toSender).toHaveLength(parcels.length);
    expect(toReceiver).toHaveLength(parcels.length);
    expect(new Set(toSender.map((m) => m.parcelId))).toEqual(new Set(parcels.map((p) => p.id)));
    for (const parcel of parcels) {
      expect(toSender).toContainEqual(pushMessage('sent_picked_up', parcel.id));
      expect(toReceiver).toContainEqual(pushMessage('incoming_on_its_way', parcel.id));
    }
  });
});
