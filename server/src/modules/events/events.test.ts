import { addressKey } from '@csomag/domain/address';
import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParcelChange } from '../../db/change-feed.ts';
import { changeChannel } from '../../db/change-feed.ts';
import { echoesOf } from '../../test/echoes.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp, testStore } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { listenLocally, openEventStream, type SseStream } from '../../test/sse.ts';

let t: TestApp;
let baseUrl: string;
/** Waits until this instance has heard every change so far (PostgreSQL echoes them a moment later). */
let heardAll: () => Promise<void>;
let admin: SignedIn;
const streams: SseStream[] = [];
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await listenLocally(t.app);
  heardAll = echoesOf(t.app);

  admin = await signInSuperadmin(t.app);
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await t.close();
});

/**
 * A stream opened once every change made so far has been heard, as a page opened after them: its
 * first message is what the test does next (on PostgreSQL a change comes back a moment later).
 */
async function subscribe(topics: string, cookie?: string, headers: Record<string, string> = {}) {
  await heardAll();
  const stream = await openEventStream(baseUrl, topics, { ...headers, ...(cookie ? { cookie } : {}) });
  streams.push(stream);
  expect(stream.status).toBe(200);
  return stream;
}

/** Commits a change through the real feed, as the pickup command of the runner module will. */
function commitPickup(parcel: Parcel, runner: string, app = t.app) {
  return app.changeFeed.transaction(async (trx, publish) => {
    await trx.updateTable('parcels').set({ status: 'in_transit' }).where('id', '=', parcel.id).execute();
    await publish({
      kind: 'picked_up',
      parcelId: parcel.id,
      status: 'in_transit',
      runner,
      senderUser: parcel.senderUser,
      receiverKey: addressKey(parcel.receiverAddress),
      previous: { status: 'waiting', runner: null, receiverKey: addressKey(parcel.receiverAddress) },
    } satisfies ParcelChange);
  });
}

let addressCounter = 0;
const uniqueAddress = () => `6720 Szeged, Dugonics tér ${Date.now() % 100000}/${++addressCounter}`;

describe('GET /api/events (Server-Sent Events)', () => {
  it('streams a change of parcel:<id> to an anonymous subscriber, with nothing private in it', async () => {
    const sender = await signUp(t.app);
    const parcel = await sendParcel(t.app, sender.cookie);
    const stream = await subscribe(`parcel:${parcel.id.toLowerCase()}`);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.raw[0]).toBe('retry: 3000');

    await commitPickup(parcel, 'futar_valaki');
    const message = await stream.next();
    expect(message).toEqual({
      id: expect.stringMatching(/^\d+$/),
      event: 'change',
      data: { topic: `parcel:${parcel.id}`, kind: 'picked_up', parcelId: parcel.id, status: 'in_transit' },
    });
    const text = stream.raw.join('\n');
    for (const secret of ['futar_valaki', sender.account.userName, parcel.receiverAddress])
      expect(text).not.toContain(secret);
  });

  it('announces nothing from a transaction that rolled back', async () => {
    const sender = await signUp(t.app);
    const parcel = await sendParcel(t.app, sender.cookie);
    const stream = await subscribe(`parcel:${parcel.id}`);
    await expect(
      t.app.changeFeed.transaction(async (trx, publish) => {
        await publish({
          kind: 'edited',
          parcelId: parcel.id,
          status: 'waiting',
          runner: null,
          senderUser: parcel.senderUser,
          receiverKey: 'x',
          previous: null,
        });
        await trx.updateTable('parcels').set({ category: 'Visszagörgetve' }).where('id', '=', parcel.id).execute();
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await commitPickup(parcel, 'futar');
    expect((await stream.next())?.data).toMatchObject({ kind: 'picked_up' });
  });

  it('sends a user on me only their own parcels and those addressed to them, never another user’s', async () => {
    const address = uniqueAddress();
    const anna = await signUp(t.app, { address });
    const bela = await signUp(t.app);
    const stream = await subscribe('me', anna.cookie);

    const belas = await sendParcel(t.app, bela.cookie);
    const annas = await sendParcel(t.app, anna.cookie);
    const toAnna = await sendParcel(t.app, bela.cookie, { receiverAddress: address.toUpperCase() });

    expect((await stream.next())?.data).toEqual({
      topic: 'me',
      kind: 'created',
      parcelId: annas.id,
      status: 'waiting',
    });
    expect((await stream.next())?.data).toMatchObject({ topic: 'me', parcelId: toAnna.id });
    await commitPickup(belas, 'futar');
    expect(await stream.next(300)).toBeNull();
    expect(stream.raw.join('\n')).not.toContain(belas.id);
  });

  it('sends the superadmin and runners new parcels on parcels; runners only waiting-list changes', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const sender = await signUp(t.app);
    const asAdmin = await subscribe('parcels', admin.cookie);
    const asRunner = await subscribe('parcels', runner.cookie);
    const parcel = await sendParcel(t.app, sender.cookie);
    const created = { topic: 'parcels', kind: 'created', parcelId: parcel.id, status: 'waiting' };
    expect((await asAdmin.next())?.data).toEqual(created);
    expect((await asRunner.next())?.data).toEqual(created);

    await t.app.changeFeed.transaction(async (_trx, publish) =>
      publish({
        kind: 'delivered',
        parcelId: parcel.id,
        status: 'delivered',
        runner: runner.account.userName,
        senderUser: sender.account.userName,
        receiverKey: 'x',
        previous: { status: 'in_transit', runner: runner.account.userName, receiverKey: 'x' },
      }),
    );
    expect((await asAdmin.next())?.data).toMatchObject({ kind: 'delivered', parcelId: parcel.id });
    expect(await asRunner.next(300)).toBeNull();
  });

  it('resumes on another instance: event ids mean the same on every instance', async () => {
    const other = await t.addInstance();
    const otherUrl = await listenLocally(other);
    const sender = await signUp(t.app);
    const parcel = await sendParcel(t.app, sender.cookie);
    const first = await subscribe(`parcel:${parcel.id}`);
    await commitPickup(parcel, 'futar');
    const seen = await first.next();
    first.close();

    // Made through this instance while the browser was away; it comes back through the other one.
    await commitPickup(parcel, 'futar');
    await commitPickup(parcel, 'futar');
    const resumed = await openEventStream(otherUrl, `parcel:${parcel.id}`, { 'last-event-id': String(seen?.id) });
    streams.push(resumed);
    const replayed = [await resumed.next(), await resumed.next()];
    expect(replayed.map((message) => Number(message?.id))).toEqual([Number(seen?.id) + 1, Number(seen?.id) + 2]);
    expect(replayed[0]?.data).toMatchObject({ parcelId: parcel.id, kind: 'picked_up' });
    // Then live: on PostgreSQL a change through the first instance reaches the stream on the other
    // (SQLite is one instance: its feed is in process memory).
    await commitPickup(parcel, 'futar', testStore === 'postgres' ? t.app : other);
    expect(Number((await resumed.next())?.id)).toBe(Number(seen?.id) + 3);
  });

  it('replays nothing for a Last-Event-ID the log no longer reaches back to', async () => {
    const sender = await signUp(t.app);
    const parcel = await sendParcel(t.app, sender.cookie);
    await commitPickup(parcel, 'futar');
    // Everything logged so far is older than what is kept.
    await t.app.changeFeed.prune(Date.now() + 60 * 60_000);
    await commitPickup(parcel, 'futar');
    const tooOld = await subscribe(`parcel:${parcel.id}`, undefined, { 'last-event-id': '1' });
    expect(await tooOld.next(300)).toBeNull();
    const unknown = await subscribe(`parcel:${parcel.id}`, undefined, { 'last-event-id': 'nem-szam' });
    expect(await unknown.next(300)).toBeNull();
  });

  it('caps one client at 32 open streams, counted over every instance', async () => {
    const other = await t.addInstance();
    const otherUrl = await listenLocally(other);
    const runner = await signUp(t.app, { role: 'runner' });
    const open: SseStream[] = [];
    for (let i = 0; i < 32; i++) {
      // SQLite is one instance in production (its count is in process memory): all on one there.
      const url = testStore === 'postgres' && i % 2 === 1 ? otherUrl : baseUrl;
      const stream = await openEventStream(url, 'parcels', { cookie: runner.cookie });
      streams.push(stream);
      open.push(stream);
      expect(stream.status).toBe(200);
    }
    const refused = await openEventStream(testStore === 'postgres' ? otherUrl : baseUrl, 'parcels', {
      cookie: runner.cookie,
    });
    streams.push(refused);
    expect(refused.status).toBe(429);
    expect(refused.error).toEqual({ code: 'too_many_streams', message: messages.tooManyStreams });
    open[0]?.close();
    let again = refused;
    for (let attempt = 0; attempt < 50 && again.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      again = await openEventStream(baseUrl, 'parcels', { cookie: runner.cookie });
      streams.push(again);
    }
    expect(again.status).toBe(200);
  });

  it.each([
    ['me', undefined, 401, 'sign_in_required', messages.signInRequired],
    ['parcels', undefined, 401, 'sign_in_required', messages.signInRequired],
    ['parcels', 'user', 403, 'forbidden', messages.forbidden],
    ['me', 'superadmin', 403, 'forbidden', messages.forbidden],
    ['parcel:AAAAAAAAAA,parcels', 'user', 403, 'forbidden', messages.forbidden],
  ])('refuses the topics %s to %s with %i (%s)', async (topics, who, status, code, message) => {
    const cookie = who === 'user' ? (await signUp(t.app)).cookie : who === 'superadmin' ? admin.cookie : undefined;
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/events',
      query: { topics },
      ...(cookie ? { headers: { cookie } } : {}),
    });
    expect(response.statusCode).toBe(status);
    expect(response.json().error).toEqual({ code, message });
  });

  it('holds no stream open for HEAD (it would send the head, then the stream)', async () => {
    const response = await t.app.inject({ method: 'HEAD', url: '/api/events', query: { topics: 'parcel:AAAAAAAAAA' } });
    expect(response.statusCode).toBe(404);
  });

  it.each([
    '',
    'mindent',
    'parcel:nem-azonosito',
    'parcels,',
    Array.from({ length: 21 }, (_, i) => `parcel:${String(i).padStart(10, '0')}`).join(','),
  ])('refuses malformed topics (%s) with 400 naming topics', async (topics) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/events', query: { topics } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_topics');
    expect(response.json().error.fields).toEqual({ topics: messages.invalidTopics });
  });
});

describe('the PostgreSQL change feed', () => {
  it.runIf(testStore === 'postgres')('listens again after the database dropped its LISTEN connection', async () => {
    const sender = await signUp(t.app);
    const parcel = await sendParcel(t.app, sender.cookie);
    const stream = await subscribe(`parcel:${parcel.id}`);
    const channel = changeChannel(t.store.pgSchema);
    const terminated = await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'csomagkuldo-listen' and query = ${`listen "${channel}"`}`.execute(t.store.db);
    // Every instance of this test file listens on the channel (addInstance above): all of them drop.
    expect(terminated.rows.length).toBeGreaterThanOrEqual(1);
    // Committed while nobody listened: caught up from the change log once the feed is back.
    await commitPickup(parcel, 'futar');
    const message = await stream.next(15_000);
    expect(message?.data).toMatchObject({ parcelId: parcel.id, kind: 'picked_up' });
    expect(t.app.changeFeed.listening).toBe(true);
  });
});

describe('shutting down with open streams', () => {
  it('ends every open stream when the app closes, so close() does not hang', async () => {
    const other = await createTestApp();
    const url = await listenLocally(other.app);
    const stream = await openEventStream(url, 'parcel:AAAAAAAAAA');
    const closed = other.close();
    expect(await stream.next(2000)).toBeNull();
    await closed;
    expect(other.app.server.listening).toBe(false);
  });
});
