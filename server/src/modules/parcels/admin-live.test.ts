import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { listenLocally, openEventStream, type SseMessage, type SseStream } from '../../test/sse.ts';

let t: TestApp;
let baseUrl: string;
let admin: SignedIn;
let user: SignedIn;
let runner: SignedIn;
const streams: SseStream[] = [];
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await listenLocally(t.app);
  admin = await signInSuperadmin(t.app);
  user = await signUp(t.app);
  runner = await signUp(t.app, { role: 'runner' });
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await t.close();
});

async function subscribe(topics: string, cookie?: string) {
  const stream = await openEventStream(baseUrl, topics, cookie ? { cookie } : {});
  streams.push(stream);
  expect(stream.status).toBe(200);
  return stream;
}

/**
 * The next back-office change about this parcel (other tests' parcels may be announced in between).
 * Its creation is skipped: on PostgreSQL the notification of a parcel sent just before a stream
 * opened can still reach that stream, and no test here is about creation.
 */
async function nextAbout(stream: SseStream, parcelId: string): Promise<SseMessage['data'] | null> {
  for (;;) {
    const message = await stream.next();
    if (!message) return null;
    const data = message.data as { parcelId: string; kind: string };
    if (data.parcelId === parcelId && data.kind !== 'created') return message.data;
  }
}

const call = (method: 'PATCH' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { cookie: admin.cookie }, ...(payload ? { payload } : {}) });

describe('back-office changes on the live topics', () => {
  it('reach the superadmin’s parcels topic: edit, status change, assignment, deletion', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    const all = await subscribe('parcels', admin.cookie);

    expect((await call('PATCH', `/api/parcels/${parcel.id}`, { category: 'Élő frissítés' })).statusCode).toBe(200);
    expect(await nextAbout(all, parcel.id)).toEqual({
      topic: 'parcels',
      kind: 'edited',
      parcelId: parcel.id,
      status: 'waiting',
    });

    const assigned = await call('POST', `/api/parcels/${parcel.id}/assign`, { runner: runner.account.userName });
    expect(assigned.statusCode).toBe(200);
    expect(await nextAbout(all, parcel.id)).toMatchObject({ kind: 'assigned', status: 'in_transit' });

    expect((await call('PATCH', `/api/parcels/${parcel.id}`, { status: 'delivered' })).statusCode).toBe(200);
    expect(await nextAbout(all, parcel.id)).toMatchObject({ kind: 'status_changed', status: 'delivered' });

    expect((await call('DELETE', `/api/parcels/${parcel.id}`)).statusCode).toBe(204);
    expect(await nextAbout(all, parcel.id)).toMatchObject({ kind: 'deleted', status: 'delivered' });
  });

  it('tell runners their waiting list changed, the tracking page and the people concerned', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    const waitingList = await subscribe('parcels', runner.cookie);
    const tracking = await subscribe(`parcel:${parcel.id}`);
    const sender = await subscribe('me', user.cookie);
    const carrier = await subscribe('me', runner.cookie);

    await call('POST', `/api/parcels/${parcel.id}/assign`, { runner: runner.account.userName });
    expect(await nextAbout(waitingList, parcel.id)).toMatchObject({ topic: 'parcels', kind: 'assigned' });
    expect(await nextAbout(tracking, parcel.id)).toMatchObject({ kind: 'assigned', status: 'in_transit' });
    expect(await nextAbout(sender, parcel.id)).toMatchObject({ topic: 'me', kind: 'assigned' });
    expect(await nextAbout(carrier, parcel.id)).toMatchObject({ topic: 'me', kind: 'assigned' });

    // Back to waiting: it leaves the carrier's list and returns to every runner's pool.
    await call('PATCH', `/api/parcels/${parcel.id}`, { status: 'waiting', reason: 'A futár visszaadta.' });
    expect(await nextAbout(waitingList, parcel.id)).toMatchObject({ kind: 'status_changed', status: 'waiting' });
    expect(await nextAbout(carrier, parcel.id)).toMatchObject({ kind: 'status_changed', status: 'waiting' });
    expect(await nextAbout(tracking, parcel.id)).toMatchObject({ kind: 'status_changed', status: 'waiting' });
    expect(await nextAbout(sender, parcel.id)).toMatchObject({ kind: 'status_changed', status: 'waiting' });

    await call('DELETE', `/api/parcels/${parcel.id}`);
    expect(await nextAbout(waitingList, parcel.id)).toMatchObject({ kind: 'deleted' });
    expect(await nextAbout(tracking, parcel.id)).toMatchObject({ kind: 'deleted' });
    expect(await nextAbout(sender, parcel.id)).toMatchObject({ kind: 'deleted' });
  });

  it('tell the runner when a parcel they carry is deleted', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    await call('POST', `/api/parcels/${parcel.id}/assign`, { runner: runner.account.userName });
    const carrier = await subscribe('me', runner.cookie);
    expect((await call('DELETE', `/api/parcels/${parcel.id}`, { reason: 'Hibásan rögzítve.' })).statusCode).toBe(204);
    expect(await nextAbout(carrier, parcel.id)).toMatchObject({ topic: 'me', kind: 'deleted' });
  });
});
