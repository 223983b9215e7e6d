import { messages } from '@csomag/domain/messages';
import { en } from '@csomag/domain/messages-en';
import { paths } from '@csomag/domain/paths';
import { PUSH_KINDS, pushMessage } from '@csomag/domain/push-kinds';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp, testStore } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { parsePrometheus } from '../../test/prometheus.ts';
import {
  type FakePushService,
  type ReceivedPush,
  startFakePushService,
  type TestDevice,
  testDevice,
  vapidClaims,
} from '../../test/push-service.ts';
import { returnFromDropPoint } from '../parcels/changes.ts';
import { assertPushEndpoint } from './service.ts';

/**
 * Web Push through the API on a real database, with a fake push service on 127.0.0.1 as the only
 * outside service: what is sent to whom, encrypted for the device and signed with VAPID; devices
 * the push service has forgotten are forgotten; switched-off kinds stay quiet; bad subscriptions
 * are refused; a push service that hangs holds up no request (docs/decisions/0018).
 */

let t: TestApp;
let other: FastifyInstance | undefined;
let service: FakePushService;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ PUSH_ALLOW_LOOPBACK: '1' });
  // PostgreSQL: a second instance on the same database hears every change too, and must not send it again.
  other = testStore === 'postgres' ? await t.addInstance() : undefined;
  service = await startFakePushService();
  admin = await signInSuperadmin(t.app);
});
afterAll(async () => {
  await t.close();
  await service.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who?: SignedIn, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: {
      ...(who ? { cookie: who.cookie } : {}),
      'user-agent':
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
    },
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });

/** Every instance has handled every change committed so far, and sent what it had to. */
async function settle() {
  const newest = await t.store.db
    .selectFrom('change_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  const id = Number(newest?.id ?? 0);
  await Promise.all([t.app, ...(other ? [other] : [])].map((app) => app.push.settledThrough(id)));
}

async function subscribe(who: SignedIn, device: TestDevice) {
  const response = await call('POST', '/api/me/push-devices', who, device.subscription);
  expect(response.statusCode).toBe(201);
  return response.json().device as { id: number; label: string | null; createdAt: string };
}

const storedDevices = (who: SignedIn) =>
  t.store.db
    .selectFrom('push_subscriptions')
    .innerJoin('accounts', 'accounts.id', 'push_subscriptions.account_id')
    .select(['push_subscriptions.id', 'endpoint'])
    .where('accounts.user_name', '=', who.account.userName)
    .execute();

let receiverCounter = 0;
/** A sender, an account living at the parcel's receiver address, a runner — each with a device. */
async function cast() {
  receiverCounter += 1;
  const receiverAddress = `Debrecen, Piac utca ${900 + receiverCounter}`;
  const sender = await signUp(t.app);
  const receiver = await signUp(t.app, { address: receiverAddress });
  const runner = await signUp(t.app, { role: 'runner' });
  const devices = { sender: service.device(), receiver: service.device(), runner: service.device() };
  await subscribe(sender, devices.sender);
  await subscribe(receiver, devices.receiver);
  await subscribe(runner, devices.runner);
  return { sender, receiver, runner, devices, receiverAddress };
}

/** The decrypted payloads that reached a device, in order. */
const messagesTo = (device: TestDevice) => service.pushesTo(device).map((push) => device.open(push.body));

describe('the VAPID key', () => {
  it('gives signed-in accounts the public key, a P-256 point', async () => {
    const someone = await signUp(t.app);
    const response = await call('GET', '/api/push/key', someone);
    expect(response.statusCode).toBe(200);
    const { publicKey } = response.json();
    expect(publicKey).toBe(t.app.config.vapid.publicKey);
    const point = Buffer.from(publicKey, 'base64url');
    expect(point).toHaveLength(65);
    expect(point[0]).toBe(4);
  });

  it('refuses a stranger (401)', async () => {
    const response = await call('GET', '/api/push/key');
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('sign_in_required');
  });
});

describe('devices', () => {
  it('adds this device, named from its User-Agent, and lists it with the time it was added', async () => {
    const someone = await signUp(t.app);
    const device = await subscribe(someone, service.device());
    expect(device.label).toBe('Chrome · Android');
    expect(Date.parse(device.createdAt)).not.toBeNaN();
    const list = await call('GET', '/api/me/push-devices', someone);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ items: [device] });
    // Never the endpoint or the keys.
    expect(list.body).not.toContain(service.origin);
  });

  it('subscribing the same endpoint again keeps one device, now of whoever subscribed last', async () => {
    const first = await signUp(t.app);
    const second = await signUp(t.app);
    const device = service.device();
    await subscribe(first, device);
    await subscribe(first, device);
    expect(await storedDevices(first)).toHaveLength(1);
    await subscribe(second, device);
    expect(await storedDevices(first)).toHaveLength(0);
    expect(await storedDevices(second)).toHaveLength(1);
  });

  it("removes one of my devices, and answers 404 for another account's, removing nothing", async () => {
    const owner = await signUp(t.app);
    const stranger = await signUp(t.app);
    const kept = await subscribe(owner, service.device());
    const removed = await subscribe(owner, service.device());
    const refused = await call('DELETE', `/api/me/push-devices/${kept.id}`, stranger);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error).toEqual({ code: 'push_device_not_found', message: messages.pushDeviceNotFound });
    expect(await storedDevices(owner)).toHaveLength(2);
    const response = await call('DELETE', `/api/me/push-devices/${removed.id}`, owner);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ items: [kept] });
    expect((await call('DELETE', `/api/me/push-devices/${removed.id}`, owner)).statusCode).toBe(404);
  });

  it('refuses a stranger (401) on every device route', async () => {
    expect((await call('GET', '/api/me/push-devices')).statusCode).toBe(401);
    expect((await call('POST', '/api/me/push-devices', undefined, service.device().subscription)).statusCode).toBe(401);
    expect((await call('DELETE', '/api/me/push-devices/1')).statusCode).toBe(401);
    expect((await call('GET', '/api/me/push-preferences')).statusCode).toBe(401);
    expect((await call('PATCH', '/api/me/push-preferences', undefined, { kinds: {} })).statusCode).toBe(401);
  });
});

describe('bad subscriptions', () => {
  const valid = () => testDevice('https://push.example.com/send/abc').subscription;
  const tenKiB = 'A'.repeat(10 * 1024);
  const cases: [string, unknown][] = [
    ['not an object', 'garbage'],
    ['an array', [1, 2, 3]],
    ['no endpoint', { keys: valid().keys }],
    ['an endpoint that is no URL', { ...valid(), endpoint: 'not a url' }],
    ['an http endpoint', { ...valid(), endpoint: 'http://push.example.com/send/abc' }],
    ['an ftp endpoint', { ...valid(), endpoint: 'ftp://push.example.com/send/abc' }],
    ['a javascript: endpoint', { ...valid(), endpoint: 'javascript:alert(1)' }],
    ['an https endpoint on an IP address', { ...valid(), endpoint: 'https://10.0.0.5/send/abc' }],
    ['an https endpoint on an IPv6 address', { ...valid(), endpoint: 'https://[fd00::1]/send/abc' }],
    ['an endpoint with credentials', { ...valid(), endpoint: 'https://user:pw@push.example.com/send' }],
    ['a 3 KiB endpoint', { ...valid(), endpoint: `https://push.example.com/${'a'.repeat(3000)}` }],
    ['no keys', { endpoint: valid().endpoint }],
    ['no auth key', { endpoint: valid().endpoint, keys: { p256dh: valid().keys.p256dh } }],
    ['no p256dh key', { endpoint: valid().endpoint, keys: { auth: valid().keys.auth } }],
    ['a 10 KiB p256dh key', { endpoint: valid().endpoint, keys: { ...valid().keys, p256dh: tenKiB } }],
    ['a 10 KiB auth key', { endpoint: valid().endpoint, keys: { ...valid().keys, auth: tenKiB } }],
    [
      'a p256dh key of 64 bytes',
      { ...valid(), keys: { ...valid().keys, p256dh: Buffer.alloc(64, 4).toString('base64url') } },
    ],
    [
      'an auth key of 15 bytes',
      { ...valid(), keys: { ...valid().keys, auth: Buffer.alloc(15, 1).toString('base64url') } },
    ],
    ['a key that is not base64url', { ...valid(), keys: { ...valid().keys, auth: 'ÁÁÁÁÁÁÁÁÁÁÁÁÁÁÁÁÁÁÁÁÁÁ' } }],
    ['keys that are numbers', { ...valid(), keys: { p256dh: 1, auth: 2 } }],
  ];

  it.each(cases)('refuses %s (400) and stores nothing', async (_name, body) => {
    const someone = await signUp(t.app);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/me/push-devices',
      headers: { cookie: someone.cookie, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(await storedDevices(someone)).toHaveLength(0);
  });

  it('refuses a body that is not JSON at all (400) and stores nothing', async () => {
    const someone = await signUp(t.app);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/me/push-devices',
      headers: { cookie: someone.cookie, 'content-type': 'application/json' },
      payload: '{"endpoint": "https://push.example.com/x", "keys": {',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(await storedDevices(someone)).toHaveLength(0);
  });

  it('takes the same valid subscription (the control for the cases above)', async () => {
    const someone = await signUp(t.app);
    expect((await call('POST', '/api/me/push-devices', someone, valid())).statusCode).toBe(201);
    expect(await storedDevices(someone)).toHaveLength(1);
  });

  it('allows http on loopback only when PUSH_ALLOW_LOOPBACK says so (tests)', () => {
    expect(() => assertPushEndpoint('http://127.0.0.1:4000/push/x', false)).toThrow(messages.pushEndpointInvalid);
    expect(() => assertPushEndpoint('http://localhost:4000/push/x', false)).toThrow(messages.pushEndpointInvalid);
    expect(() => assertPushEndpoint('https://localhost/push/x', false)).toThrow(messages.pushEndpointInvalid);
    expect(() => assertPushEndpoint('http://127.0.0.1:4000/push/x', true)).not.toThrow();
    expect(() => assertPushEndpoint('http://push.example.com/x', true)).toThrow(messages.pushEndpointInvalid);
    expect(() => assertPushEndpoint('https://fcm.googleapis.com/fcm/send/abc', false)).not.toThrow();
  });
});

describe('preferences', () => {
  it('has every kind on until switched off, and keeps the kinds it was not told about', async () => {
    const someone = await signUp(t.app);
    const all = Object.fromEntries(PUSH_KINDS.map((kind) => [kind, true]));
    expect((await call('GET', '/api/me/push-preferences', someone)).json()).toEqual({ kinds: all });
    const off = await call('PATCH', '/api/me/push-preferences', someone, {
      kinds: { sent_picked_up: false, assigned: false },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ kinds: { ...all, sent_picked_up: false, assigned: false } });
    const on = await call('PATCH', '/api/me/push-preferences', someone, { kinds: { assigned: true } });
    expect(on.json()).toEqual({ kinds: { ...all, sent_picked_up: false } });
    expect((await call('GET', '/api/me/push-preferences', someone)).json()).toEqual({
      kinds: { ...all, sent_picked_up: false },
    });
  });

  it('refuses an unknown kind or a value that is not true or false (400), changing nothing', async () => {
    const someone = await signUp(t.app);
    for (const kinds of [{ parcel_eaten: false }, { sent_delivered: 'no' }, null]) {
      const response = await call('PATCH', '/api/me/push-preferences', someone, { kinds });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_body');
    }
    const stored = await call('GET', '/api/me/push-preferences', someone);
    expect(Object.values(stored.json().kinds).every(Boolean)).toBe(true);
  });
});

describe('who is told what', () => {
  it('tells the sender and the receiver when a runner picks the parcel up, and again when it is delivered', async () => {
    const { sender, runner, devices, receiverAddress } = await cast();
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    await pickUp(t.app, runner.cookie, parcel.id);
    await settle();
    expect(messagesTo(devices.sender)).toEqual([pushMessage('sent_picked_up', parcel.id)]);
    expect(messagesTo(devices.receiver)).toEqual([pushMessage('incoming_on_its_way', parcel.id)]);
    // The runner did it: nothing to tell them.
    expect(service.pushesTo(devices.runner)).toHaveLength(0);

    expect((await call('POST', `/api/parcels/${parcel.id}/deliver`, admin, {})).statusCode).toBe(200);
    await settle();
    expect(messagesTo(devices.sender)).toEqual([
      pushMessage('sent_picked_up', parcel.id),
      pushMessage('sent_delivered', parcel.id),
    ]);
    expect(messagesTo(devices.receiver)).toEqual([
      pushMessage('incoming_on_its_way', parcel.id),
      pushMessage('incoming_delivered', parcel.id),
    ]);
    expect(messagesTo(devices.sender)[1]).toMatchObject({
      type: 'sent_delivered',
      parcelId: parcel.id,
      status: messages.pushStatusSentDelivered(parcel.id),
      url: paths.tracking(parcel.id),
    });
    expect(service.pushesTo(devices.runner)).toHaveLength(0);
  });

  it('tells both of a failed attempt, and the sender of the way back and of the parcel back with them', async () => {
    const { sender, runner, devices, receiverAddress } = await cast();
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    await pickUp(t.app, runner.cookie, parcel.id);
    const position = { lat: 47.5, lng: 19.05, accuracy: 10 };
    const attempt = await call('POST', `/api/parcels/${parcel.id}/attempts`, runner, {
      reason: 'nobody_home',
      position,
    });
    expect(attempt.statusCode, attempt.body).toBe(201);
    expect(
      (await call('POST', `/api/parcels/${parcel.id}/return`, runner, { reason: 'Nincs otthon' })).statusCode,
    ).toBe(200);
    expect((await call('POST', `/api/parcels/${parcel.id}/deliver`, admin, {})).statusCode).toBe(200);
    await settle();
    expect(messagesTo(devices.sender)).toEqual([
      pushMessage('sent_picked_up', parcel.id),
      pushMessage('sent_attempted', parcel.id),
      pushMessage('sent_returning', parcel.id),
      pushMessage('sent_returned', parcel.id),
    ]);
    // The receiver hears of the attempt (a new time is theirs to ask), not of the way back.
    expect(messagesTo(devices.receiver)).toEqual([
      pushMessage('incoming_on_its_way', parcel.id),
      pushMessage('incoming_attempted', parcel.id),
    ]);
    expect(messagesTo(devices.receiver)[1]).toMatchObject({ url: paths.tracking(parcel.id) });
    expect(service.pushesTo(devices.runner)).toHaveLength(0);
  });

  it('tells the receiver their parcel was left with a neighbour, and the sender once they collected it', async () => {
    const { sender, runner, receiver, devices, receiverAddress } = await cast();
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    await pickUp(t.app, runner.cookie, parcel.id);
    const left = await call('POST', `/api/parcels/${parcel.id}/neighbour`, runner, {
      name: 'Szabó Anna',
      door: 'fsz. 1.',
      confirmedName: 'Szabó Anna',
      position: { lat: 47.5, lng: 19.05, accuracy: 10 },
    });
    expect(left.statusCode, left.body).toBe(201);
    expect(
      (await call('POST', `/api/parcels/${parcel.id}/collect`, receiver, { pin: left.json().pin })).statusCode,
    ).toBe(200);
    await settle();
    expect(messagesTo(devices.receiver)).toEqual([
      pushMessage('incoming_on_its_way', parcel.id),
      pushMessage('incoming_with_neighbour', parcel.id),
      pushMessage('incoming_delivered', parcel.id),
    ]);
    expect(messagesTo(devices.sender)).toEqual([
      pushMessage('sent_picked_up', parcel.id),
      pushMessage('sent_delivered', parcel.id),
    ]);
  });

  /** A parcel its runner left at a drop point for its receiver, with the staff's codes. */
  async function leftAtDropPoint() {
    const people = await cast();
    const { sender, runner, receiverAddress } = people;
    const staff = await signUp(t.app);
    const point = await call('POST', '/api/drop-points', admin, {
      name: 'Sarki trafik',
      kind: 'shop',
      address: '4025 Debrecen, Piac utca 20',
      location: { lat: 47.5316, lng: 21.6273 },
      openingHours: 'H-V 0:00-24:00',
      staff: [staff.account.userName],
    });
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    await pickUp(t.app, runner.cookie, parcel.id);
    await call('POST', `/api/parcels/${parcel.id}/drop-point`, runner, { dropPointId: point.json().id });
    const codes = async () =>
      (await call('GET', `/api/drop-points/${point.json().id}/parcels`, staff)).json().items[0] as {
        dropOffPin: string;
        returnPin: string;
      };
    const left = await call('POST', `/api/parcels/${parcel.id}/pin-handover`, runner, {
      pin: (await codes()).dropOffPin,
    });
    expect(left.statusCode, left.body).toBe(200);
    return { ...people, staff, parcel, codes };
  }

  it('tells the sender when the parcel was not collected at its drop point, and again when a runner brings it back', async () => {
    const { devices, staff, parcel, codes } = await leftAtDropPoint();
    expect((await call('POST', `/api/parcels/${parcel.id}/refused-at-drop-point`, staff)).statusCode).toBe(200);
    const bringer = await signUp(t.app, { role: 'runner' });
    const taken = await call('POST', `/api/parcels/${parcel.id}/take-from-drop-point`, bringer, {
      pin: (await codes()).returnPin,
    });
    expect(taken.statusCode, taken.body).toBe(200);
    await settle();
    expect(messagesTo(devices.sender)).toEqual([
      pushMessage('sent_picked_up', parcel.id),
      pushMessage('sent_uncollected', parcel.id),
      pushMessage('sent_returning', parcel.id),
    ]);
    expect(messagesTo(devices.receiver)).toEqual([
      pushMessage('incoming_on_its_way', parcel.id),
      pushMessage('incoming_at_drop_point', parcel.id),
    ]);
  });

  it('tells the sender, as not collected, when the collection deadline turns the parcel back', async () => {
    const { devices, parcel } = await leftAtDropPoint();
    // The deadline's sweep turns every parcel past it; this one alone is turned here, as the sweep would.
    const { custody_seq } = await t.store.db
      .selectFrom('parcels')
      .select('custody_seq')
      .where('id', '=', parcel.id)
      .executeTakeFirstOrThrow();
    expect(await returnFromDropPoint(t.app.changeFeed, parcel.id, custody_seq, { uncollectedDays: 7 })).not.toBeNull();
    await settle();
    expect(messagesTo(devices.sender)).toEqual([
      pushMessage('sent_picked_up', parcel.id),
      pushMessage('sent_uncollected', parcel.id),
    ]);
    expect(messagesTo(devices.receiver)).toEqual([
      pushMessage('incoming_on_its_way', parcel.id),
      pushMessage('incoming_at_drop_point', parcel.id),
    ]);
  });

  it('tells the sender of the way back, not of a parcel left uncollected, when the back office sends it back from its drop point', async () => {
    const { devices, staff, parcel } = await leftAtDropPoint();
    const incident = await call('POST', `/api/parcels/${parcel.id}/incidents`, staff, {
      kind: 'damaged',
      description: 'Összetört a polcon',
    });
    expect(incident.statusCode, incident.body).toBe(201);
    const decided = await call('POST', `/api/incidents/${incident.json().id}/resolve`, admin, {
      decision: 'return',
      note: 'A feladó kéri vissza',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    await settle();
    expect(messagesTo(devices.sender)).toEqual([
      pushMessage('sent_picked_up', parcel.id),
      pushMessage('sent_returning', parcel.id),
    ]);
  });

  it('tells both when the back office writes the parcel off as lost', async () => {
    const { sender, runner, devices, receiverAddress } = await cast();
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    await pickUp(t.app, runner.cookie, parcel.id);
    const incident = await call('POST', `/api/parcels/${parcel.id}/incidents`, runner, {
      kind: 'lost',
      description: 'Ellopták a táskámat',
    });
    expect(incident.statusCode, incident.body).toBe(201);
    const decided = await call('POST', `/api/incidents/${incident.json().id}/resolve`, admin, {
      decision: 'write_off',
      note: 'Nem került elő',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    await settle();
    expect(messagesTo(devices.sender)).toEqual([
      pushMessage('sent_picked_up', parcel.id),
      pushMessage('sent_lost', parcel.id),
    ]);
    expect(messagesTo(devices.receiver)).toEqual([
      pushMessage('incoming_on_its_way', parcel.id),
      pushMessage('incoming_lost', parcel.id),
    ]);
  });

  it('tells a runner the back office assigned a parcel to them, with a link to their list', async () => {
    const { sender, runner, devices, receiverAddress } = await cast();
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    const assigned = await call('POST', `/api/parcels/${parcel.id}/assign`, admin, { runner: runner.account.userName });
    expect(assigned.statusCode).toBe(200);
    await settle();
    expect(messagesTo(devices.runner)).toEqual([
      {
        type: 'assigned',
        parcelId: parcel.id,
        title: messages.pushTitleAssigned,
        status: messages.pushStatusAssigned(parcel.id),
        lang: 'hu',
        url: paths.inProgressParcels,
      },
    ]);
    expect(messagesTo(devices.sender)).toEqual([pushMessage('sent_picked_up', parcel.id)]);
  });

  it('tells each in the language their account chose (issue 30), Hungarian otherwise', async () => {
    const { sender, runner, devices, receiverAddress } = await cast();
    const chosen = await call('PATCH', `/api/users/${sender.account.userName}`, sender, { language: 'en' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    expect((await call('POST', `/api/parcels/${parcel.id}/pickup`, runner)).statusCode).toBe(200);
    await settle();
    expect(messagesTo(devices.sender)).toEqual([
      {
        type: 'sent_picked_up',
        parcelId: parcel.id,
        title: en.pushTitleSentPickedUp,
        status: en.pushStatusSentPickedUp(parcel.id),
        lang: 'en',
        url: paths.tracking(parcel.id),
      },
    ]);
    expect(messagesTo(devices.receiver)).toEqual([pushMessage('incoming_on_its_way', parcel.id)]);
  });

  it('tells nobody about a new parcel, and nobody who is neither its sender, receiver nor runner', async () => {
    const { sender, runner, devices, receiverAddress } = await cast();
    const bystander = await signUp(t.app);
    const bystanderDevice = service.device();
    await subscribe(bystander, bystanderDevice);
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    await settle();
    expect(service.pushesTo(devices.sender)).toHaveLength(0);
    await pickUp(t.app, runner.cookie, parcel.id);
    await settle();
    expect(service.pushesTo(devices.sender)).toHaveLength(1);
    expect(service.pushesTo(bystanderDevice)).toHaveLength(0);
  });

  it('claims no change whose people have no device, and counts it as nobody to tell', async () => {
    const sender = await signUp(t.app);
    const runner = await signUp(t.app, { role: 'runner' });
    const noDevice = async () =>
      parsePrometheus(await t.app.metrics.scrape())
        .samples('csomagkuldo_push_changes_total')
        .find((sample) => sample.labels.outcome === 'no_device')?.value ?? 0;
    const before = await noDevice();
    const parcel = await sendParcel(t.app, sender.cookie);
    await pickUp(t.app, runner.cookie, parcel.id);
    await settle();
    const pickedUp = await t.store.db
      .selectFrom('change_log')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirstOrThrow();
    const claims = await t.store.db
      .selectFrom('push_claims')
      .select('change_id')
      .where('change_id', '=', Number(pickedUp.id))
      .execute();
    expect(claims).toEqual([]);
    // The pickup had news for the sender (and on PostgreSQL, the second instance counts its own).
    expect(await noDevice()).toBe(before + 1);
  });

  it('tells of a delivery the back office recorded, and of nothing else it edits', async () => {
    const { sender, runner, devices, receiverAddress } = await cast();
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    await pickUp(t.app, runner.cookie, parcel.id);
    const edited = await call('PATCH', `/api/parcels/${parcel.id}`, admin, { category: 'Ruha' });
    expect(edited.statusCode).toBe(200);
    const delivered = await call('PATCH', `/api/parcels/${parcel.id}`, admin, { status: 'delivered' });
    expect(delivered.statusCode).toBe(200);
    const undone = await call('PATCH', `/api/parcels/${parcel.id}`, admin, {
      status: 'in_transit',
      reason: 'Tévesen jelölték leadottnak.',
    });
    expect(undone.statusCode).toBe(200);
    await settle();
    expect(messagesTo(devices.sender).map((m) => m.type)).toEqual(['sent_picked_up', 'sent_delivered']);
    expect(messagesTo(devices.receiver).map((m) => m.type)).toEqual(['incoming_on_its_way', 'incoming_delivered']);
  });

  it('sends every device of the account, encrypted for each, signed with VAPID, one per parcel topic', async () => {
    const { sender, runner, devices, receiverAddress } = await cast();
    const secondDevice = service.device();
    await subscribe(sender, secondDevice);
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    const before = Math.floor(Date.now() / 1000);
    await pickUp(t.app, runner.cookie, parcel.id);
    await settle();
    const pushes: ReceivedPush[] = [...service.pushesTo(devices.sender), ...service.pushesTo(secondDevice)];
    expect(pushes).toHaveLength(2);
    expect(secondDevice.open(service.pushesTo(secondDevice)[0]?.body as Buffer)).toEqual(
      pushMessage('sent_picked_up', parcel.id),
    );
    // A device cannot read another's: each is encrypted to its own keys.
    expect(() => secondDevice.open(service.pushesTo(devices.sender)[0]?.body as Buffer)).toThrow();
    for (const push of pushes) {
      expect(push.headers).toMatchObject({
        topic: parcel.id,
        ttl: '86400',
        urgency: 'normal',
        'content-encoding': 'aes128gcm',
        'content-type': 'application/octet-stream',
      });
      expect(parcel.id).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
      const claims = vapidClaims(push.headers);
      expect(claims.aud).toBe(service.origin);
      expect(claims.exp).toBeGreaterThan(before);
      expect(claims.sub).toMatch(/^(mailto:|https:\/\/)./);
      expect(claims.publicKey).toBe(t.app.config.vapid.publicKey);
    }
  });

  it('carries no personal data: no names, addresses, phone numbers or categories', async () => {
    const { sender, runner, devices, receiverAddress } = await cast();
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    await pickUp(t.app, runner.cookie, parcel.id);
    await settle();
    const [push] = service.pushesTo(devices.sender);
    const text = JSON.stringify(devices.sender.open(push?.body as Buffer));
    for (const secret of [
      sender.account.userName,
      sender.account.name,
      sender.account.address,
      sender.account.phoneNumber,
      runner.account.userName,
      receiverAddress,
      parcel.category,
    ]) {
      expect(text).not.toContain(secret);
    }
    // The push service sees only ciphertext.
    expect(push?.body.toString('latin1')).not.toContain(parcel.id);
  });

  it('sends no kind the person switched off, and still the others', async () => {
    const { sender, receiver, runner, devices, receiverAddress } = await cast();
    await call('PATCH', '/api/me/push-preferences', sender, { kinds: { sent_picked_up: false } });
    await call('PATCH', '/api/me/push-preferences', receiver, { kinds: { incoming_delivered: false } });
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    await pickUp(t.app, runner.cookie, parcel.id);
    await call('POST', `/api/parcels/${parcel.id}/deliver`, admin, {});
    await settle();
    expect(messagesTo(devices.sender)).toEqual([pushMessage('sent_delivered', parcel.id)]);
    expect(messagesTo(devices.receiver)).toEqual([pushMessage('incoming_on_its_way', parcel.id)]);
  });

  it.each([410, 404])('forgets a device the push service answers %i for, and keeps the others', async (status) => {
    const { sender, receiver, runner, devices, receiverAddress } = await cast();
    service.answerFor(devices.sender, status);
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    await pickUp(t.app, runner.cookie, parcel.id);
    await settle();
    expect(service.pushesTo(devices.sender)).toHaveLength(1);
    expect(await storedDevices(sender)).toHaveLength(0);
    expect((await call('GET', '/api/me/push-devices', sender)).json()).toEqual({ items: [] });
    // A 201 keeps a device.
    expect(await storedDevices(receiver)).toHaveLength(1);
    // And a forgotten device is sent nothing more.
    await call('POST', `/api/parcels/${parcel.id}/deliver`, admin, {});
    await settle();
    expect(service.pushesTo(devices.sender)).toHaveLength(1);
  });

  it('keeps a device whose push service failed for a while (500), and tries it again next time', async () => {
    const { sender, runner, devices, receiverAddress } = await cast();
    service.answerFor(devices.sender, 500);
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    await pickUp(t.app, runner.cookie, parcel.id);
    await settle();
    expect(await storedDevices(sender)).toHaveLength(1);
    service.answerFor(devices.sender, 201);
    await call('POST', `/api/parcels/${parcel.id}/deliver`, admin, {});
    await settle();
    expect(messagesTo(devices.sender).map((m) => m.type)).toEqual(['sent_picked_up', 'sent_delivered']);
  });

  it(`notifies each change once${testStore === 'postgres' ? ', whichever of two instances made it' : ''}`, async () => {
    const { sender, runner, devices, receiverAddress } = await cast();
    const second = other ?? t.app;
    const parcel = await sendParcel(second, sender.cookie, { receiverAddress });
    await pickUp(t.app, runner.cookie, parcel.id);
    const delivered = await second.inject({
      method: 'POST',
      url: `/api/parcels/${parcel.id}/deliver`,
      headers: { cookie: admin.cookie },
      payload: {},
    });
    expect(delivered.statusCode).toBe(200);
    await settle();
    expect(messagesTo(devices.sender).map((m) => m.type)).toEqual(['sent_picked_up', 'sent_delivered']);
    expect(messagesTo(devices.receiver).map((m) => m.type)).toEqual(['incoming_on_its_way', 'incoming_delivered']);
    const claims = await t.store.db.selectFrom('push_claims').select('change_id').execute();
    expect(new Set(claims.map((c) => c.change_id)).size).toBe(claims.length);
  });
});

describe('a push service that hangs', () => {
  it('holds up no request, nor the pushes to other devices', async () => {
    const { sender, runner, devices, receiverAddress } = await cast();
    service.answerFor(devices.sender, 'hang');
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress });
    const pickup = await call('POST', `/api/parcels/${parcel.id}/pickup`, runner);
    expect(pickup.statusCode).toBe(200);
    // The sender's push is now held open by the service...
    const [hung] = await service.waitForPushes(devices.sender, 1);
    // ...while the receiver's went through,
    await service.waitForPushes(devices.receiver, 1);
    // and the next change, and its request, are answered while the first push still hangs.
    const delivered = await call('POST', `/api/parcels/${parcel.id}/deliver`, admin, {});
    expect(delivered.statusCode).toBe(200);
    const list = await call('GET', '/api/me/push-devices', sender);
    expect(list.statusCode).toBe(200);
    await service.waitForPushes(devices.receiver, 2);
    expect(hung?.answered).toBe(false);
    expect(messagesTo(devices.receiver).map((m) => m.type)).toEqual(['incoming_on_its_way', 'incoming_delivered']);
  });
});
