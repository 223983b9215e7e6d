import { randomBytes, randomUUID } from 'node:crypto';
import { messages } from '@csomag/domain/messages';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { returnUncollectedParcels } from '../modules/drop-points/deadline.ts';
import { handoverPinKey, pinFor } from '../modules/handover/pin.ts';
import { mailKeys, stopToken } from '../modules/mail/parcel-mail.ts';
import {
  buildRegistration,
  createTestApp,
  type SignedIn,
  signInSuperadmin,
  signUp,
  type TestApp,
} from '../test/harness.ts';
import { buildParcelBody } from '../test/parcels.ts';
import { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER } from './idempotency.ts';

/**
 * ADR 0017's claim, held by test on every route that takes part: the same Idempotency-Key sent
 * concurrently to a signed-in POST (or PUT) route gives one effect — the effect one request with a
 * key has — one original answer, and to every other copy either that answer replayed or 409
 * idempotency_key_in_flight.
 *
 * The routes come from the OpenAPI document (every operation that lists the Idempotency-Key
 * header); each has a row below that builds a fresh subject through the API and says what to
 * send. A route that takes part without a row fails, and so does a row whose route no longer
 * takes part.
 *
 * The effect is read as a fingerprint of the database: the row count of every table the app has,
 * and the sum of parcels.version. Left out are the tables whose counts say nothing about the
 * request (NOT_EFFECTS). The push notifier's claims (push_claims, written off the change feed, after
 * the request has answered) are counted once the notifier and the trip offers have handled every
 * change committed so far. Sessions are counted too: the sign-ups that make them happen while a
 * subject is prepared, before the first fingerprint.
 *
 * A route where the claim does not hold fails here, on both stores: its test names what the copies
 * answered and, when more than one applied, what they changed.
 */

let t: TestApp;
let app: FastifyInstance;
let admin: SignedIn;
let photo: Buffer;

beforeAll(async () => {
  // Manual approval: a runner awaiting approval is a subject of the approve route; every other
  // runner here is approved through the API before it carries anything.
  t = await createTestApp({ RUNNER_APPROVAL: 'manual' });
  app = t.app;
  admin = await signInSuperadmin(app);
  photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 90, g: 140, b: 60 } } })
    .jpeg()
    .toBuffer();
});
afterAll(() => t.close());

/** How many copies of one request go at once. */
const COPIES = 5;

type Method = 'POST' | 'PUT';

/** What a row sends: the URL, who sends it, and its body (JSON, or a multipart photo). */
interface Prepared {
  url: string;
  who: SignedIn;
  payload?: object;
  multipart?: Buffer;
}

let addresses = 0;
/**
 * A client address of its own for each call: a file of this size sends more than the 600 requests
 * a minute one client may (the harness's sign-ups use 10.200.*).
 */
const nextAddress = () => {
  addresses += 1;
  return `10.201.${Math.floor(addresses / 250) % 250}.${(addresses % 250) + 1}`;
};

let keys = 0;
const newKey = () => `egyszer-${Date.now().toString(36)}-${++keys}`;

/** A call made while preparing a subject, which must succeed; its JSON answer (none for a 204). */
async function api<T>(who: SignedIn, method: 'GET' | Method, url: string, payload?: object): Promise<T> {
  const response = await app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    remoteAddress: nextAddress(),
    ...(payload ? { payload } : {}),
  });
  if (response.statusCode >= 300) throw new Error(`${method} ${url} → ${response.statusCode} ${response.body}`);
  return (response.body ? response.json() : undefined) as T;
}

const BOUNDARY = '----csomagegyszer';

/** A row's request under `key`: the copies of one request are the same request, key and client. */
const send = (method: Method, request: Prepared, key: string, remoteAddress: string) =>
  app.inject({
    method,
    url: request.url,
    remoteAddress,
    headers: {
      cookie: request.who.cookie,
      [IDEMPOTENCY_KEY_HEADER]: key,
      ...(request.multipart ? { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } : {}),
    },
    ...(request.multipart ? { payload: request.multipart } : request.payload ? { payload: request.payload } : {}),
  });

/** A multipart body with the photo in its `photo` field, as the runner's phone sends it. */
const photoBody = () =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; filename="leadas.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    photo,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);

// ---- Subjects, built through the API ----

/** The destination pin at the door in Debrecen: a runner standing there may deliver by position. */
const DOOR = { lat: 47.5295, lng: 21.6255 };
const NYUGATI = { lat: 47.5106, lng: 19.0567 };
const TRIP = { from: { lat: 47.4979, lng: 19.0 }, to: { lat: 47.4979, lng: 19.12 }, mode: 'bike' };

interface ParcelAnswer {
  id: string;
}

/** A runner the back office has approved: they may carry parcels. */
async function approvedRunner() {
  const runner = await signUp(app, { role: 'runner' });
  await api(admin, 'POST', `/api/runners/${runner.account.userName}/approve`);
  return runner;
}

const sendParcel = (sender: SignedIn) =>
  api<ParcelAnswer>(sender, 'POST', '/api/parcels', buildParcelBody({ receiverCoordinates: DOOR }));

async function waiting() {
  const sender = await signUp(app);
  return { sender, parcel: await sendParcel(sender) };
}

/** A parcel its runner has picked up and holds. */
/** A drop point open around the clock, in Budapest. */
const dropPointBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Trafik',
  kind: 'shop',
  address: '1052 Budapest, Váci utca 1',
  location: { lat: 47.4953, lng: 19.0525 },
  openingHours: 'H-V 0:00-24:00',
  ...overrides,
});

async function carried() {
  const { sender, parcel } = await waiting();
  const carrier = await approvedRunner();
  await api(carrier, 'POST', `/api/parcels/${parcel.id}/pickup`);
  return { sender, carrier, parcel };
}

/** A parcel its runner delivered at the door. */
async function delivered() {
  const subject = await carried();
  await api(subject.carrier, 'POST', `/api/parcels/${subject.parcel.id}/deliver`, { ...DOOR, accuracy: 5 });
  return subject;
}

const linkToken = (link: { url: string }) => new URL(link.url).searchParams;

/** A delivered parcel whose sender commented on its runner, and that comment's id (the rating's). */
async function commented() {
  const subject = await delivered();
  await api(subject.sender, 'PUT', `/api/parcels/${subject.parcel.id}/rating`, {
    stars: 2,
    comment: 'Late and rude',
  });
  const comments = await api<{ items: { id: number }[] }>(
    admin,
    'GET',
    `/api/runners/${subject.carrier.account.userName}/rating-comments`,
  );
  const [comment] = comments.items;
  if (!comment || comments.items.length !== 1) throw new Error(`expected one comment: ${JSON.stringify(comments)}`);
  return { ...subject, ratingId: comment.id };
}

let devices = 0;
/** A push subscription as PushSubscription.toJSON() gives it (never sent to: its account is told nothing). */
function pushSubscription() {
  const point = randomBytes(65);
  point[0] = 4;
  return {
    endpoint: `https://push.example.com/send/${randomUUID()}`,
    expirationTime: null,
    keys: { p256dh: point.toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

/** A parcel its runner left at a drop point (open all week) for its receiver, and who staffs it. */
async function leftAtDropPoint() {
  const staff = await signUp(app);
  const address = `Debrecen, Piac utca ${randomBytes(3).readUIntBE(0, 3) % 90_000}`;
  const receiver = await signUp(app, { address });
  const sender = await signUp(app);
  const parcel = await api<ParcelAnswer>(sender, 'POST', '/api/parcels', buildParcelBody({ receiverAddress: address }));
  const carrier = await approvedRunner();
  await api(carrier, 'POST', `/api/parcels/${parcel.id}/pickup`);
  const point = await api<{ id: number }>(
    admin,
    'POST',
    '/api/drop-points',
    dropPointBody({ staff: [staff.account.userName] }),
  );
  await api(carrier, 'POST', `/api/parcels/${parcel.id}/drop-point`, { dropPointId: point.id });
  const { items } = await api<{ items: { dropOffPin: string }[] }>(
    staff,
    'GET',
    `/api/drop-points/${point.id}/parcels`,
  );
  await api(carrier, 'POST', `/api/parcels/${parcel.id}/pin-handover`, { pin: items[0]?.dropOffPin });
  return { staff, receiver, parcel, point };
}

/**
 * Every route that takes part (method and OpenAPI path) → a fresh subject and the request to send.
 * Each call builds a new subject, so the request applies afresh.
 */
const ROUTES: Record<string, () => Promise<Prepared>> = {
  'POST /api/parcels': async () => {
    const sender = await signUp(app);
    return { who: sender, url: '/api/parcels', payload: buildParcelBody({ receiverCoordinates: DOOR }) };
  },
  'POST /api/parcels/{id}/cancel': async () => {
    const { sender, parcel } = await waiting();
    return { who: sender, url: `/api/parcels/${parcel.id}/cancel` };
  },
  'POST /api/parcels/{id}/assign': async () => {
    const { parcel } = await waiting();
    const runner = await approvedRunner();
    return { who: admin, url: `/api/parcels/${parcel.id}/assign`, payload: { runner: runner.account.userName } };
  },
  'POST /api/parcels/{id}/pickup': async () => {
    const { parcel } = await waiting();
    const runner = await approvedRunner();
    return { who: runner, url: `/api/parcels/${parcel.id}/pickup` };
  },
  'POST /api/parcels/{id}/deliver': async () => {
    const { carrier, parcel } = await carried();
    return { who: carrier, url: `/api/parcels/${parcel.id}/deliver`, payload: { ...DOOR, accuracy: 5 } };
  },
  'POST /api/parcels/{id}/return': async () => {
    const { carrier, parcel } = await carried();
    return { who: carrier, url: `/api/parcels/${parcel.id}/return`, payload: { reason: 'Flat tyre' } };
  },
  'POST /api/parcels/{id}/attempts': async () => {
    const { carrier, parcel } = await carried();
    const payload = { reason: 'nobody_home', position: { ...DOOR, accuracy: 5 } };
    return { who: carrier, url: `/api/parcels/${parcel.id}/attempts`, payload };
  },
  'POST /api/parcels/{id}/neighbour-wish': async () => {
    const { sender, carrier, parcel } = await carried();
    await api(carrier, 'POST', `/api/parcels/${parcel.id}/attempts`, {
      reason: 'nobody_home',
      position: { ...DOOR, accuracy: 5 },
    });
    return { who: sender, url: `/api/parcels/${parcel.id}/neighbour-wish`, payload: { name: 'Kis Pál', door: '3/12' } };
  },
  'POST /api/parcels/{id}/redelivery': async () => {
    const { sender, carrier, parcel } = await carried();
    await api(carrier, 'POST', `/api/parcels/${parcel.id}/attempts`, {
      reason: 'nobody_home',
      position: { ...DOOR, accuracy: 5 },
    });
    const from = Date.now() + 3_600_000;
    const payload = { from: new Date(from).toISOString(), until: new Date(from + 3_600_000).toISOString() };
    return { who: sender, url: `/api/parcels/${parcel.id}/redelivery`, payload };
  },
  'POST /api/parcels/{id}/pin-handover': async () => {
    const { carrier, parcel } = await carried();
    const { custody_seq } = await app.store.db
      .selectFrom('parcels')
      .select('custody_seq')
      .where('id', '=', parcel.id)
      .executeTakeFirstOrThrow();
    const pin = pinFor(handoverPinKey(app.config.sessionSecret), parcel.id, custody_seq, 'receiver');
    return { who: carrier, url: `/api/parcels/${parcel.id}/pin-handover`, payload: { pin } };
  },
  'POST /api/parcels/{id}/neighbour': async () => {
    const { carrier, parcel } = await carried();
    const payload = { name: 'Kis Pál', door: '3/12', confirmedName: 'Kis Pál', position: { ...DOOR, accuracy: 5 } };
    return { who: carrier, url: `/api/parcels/${parcel.id}/neighbour`, payload };
  },
  'POST /api/parcels/{id}/collect': async () => {
    const sender = await signUp(app);
    const address = `Debrecen, Piac utca ${randomBytes(3).readUIntBE(0, 3) % 90_000}`;
    const receiver = await signUp(app, { address });
    const parcel = await api<ParcelAnswer>(
      sender,
      'POST',
      '/api/parcels',
      buildParcelBody({ receiverAddress: address, receiverCoordinates: DOOR }),
    );
    const carrier = await approvedRunner();
    await api(carrier, 'POST', `/api/parcels/${parcel.id}/pickup`);
    const { pin } = await api<{ pin: string }>(carrier, 'POST', `/api/parcels/${parcel.id}/neighbour`, {
      name: 'Kis Pál',
      door: '3/12',
      confirmedName: 'Kis Pál',
      position: { ...DOOR, accuracy: 5 },
    });
    return { who: receiver, url: `/api/parcels/${parcel.id}/collect`, payload: { pin } };
  },
  'POST /api/parcels/{id}/handover-token': async () => {
    const { carrier, parcel } = await carried();
    return { who: carrier, url: `/api/parcels/${parcel.id}/handover-token` };
  },
  'POST /api/parcels/{id}/handover': async () => {
    const { sender, carrier, parcel } = await carried();
    const link = linkToken(await api<{ url: string }>(carrier, 'POST', `/api/parcels/${parcel.id}/handover-token`));
    // Confirmed by a signed-in account (here the sender's): the key is theirs.
    return {
      who: sender,
      url: `/api/parcels/${parcel.id}/handover`,
      payload: { token: link.get('token'), futar: link.get('futar'), felado: link.get('felado') },
    };
  },
  'PUT /api/runners/me/location': async () => {
    // Carrying a parcel, so the position is announced on it (a change-feed message).
    const { carrier } = await carried();
    return { who: carrier, url: '/api/runners/me/location', payload: { lat: 47.52, lng: 21.62, accuracy: 12 } };
  },
  'POST /api/parcels/{id}/relay-token': async () => {
    const { carrier, parcel } = await carried();
    return { who: carrier, url: `/api/parcels/${parcel.id}/relay-token` };
  },
  'POST /api/parcels/{id}/relay': async () => {
    const { carrier, parcel } = await carried();
    const link = linkToken(await api<{ url: string }>(carrier, 'POST', `/api/parcels/${parcel.id}/relay-token`));
    const taker = await approvedRunner();
    return { who: taker, url: `/api/parcels/${parcel.id}/relay`, payload: { token: link.get('token') } };
  },
  'POST /api/parcels/{id}/custody-override': async () => {
    const { parcel } = await carried();
    const holder = await approvedRunner();
    return {
      who: admin,
      url: `/api/parcels/${parcel.id}/custody-override`,
      payload: { runner: holder.account.userName, reason: 'Handed over without the app' },
    };
  },
  'POST /api/parcels/{id}/relay-offer': async () => {
    const { carrier, parcel } = await carried();
    const at = Date.now();
    return {
      who: carrier,
      url: `/api/parcels/${parcel.id}/relay-offer`,
      payload: {
        place: NYUGATI,
        placeLabel: 'Nyugati',
        from: new Date(at + 10 * 60_000).toISOString(),
        until: new Date(at + 70 * 60_000).toISOString(),
      },
    };
  },
  'POST /api/relay-offers/{offerId}/take': async () => {
    const { carrier, parcel } = await carried();
    const at = Date.now();
    const offer = await api<{ id: number }>(carrier, 'POST', `/api/parcels/${parcel.id}/relay-offer`, {
      place: NYUGATI,
      from: new Date(at + 10 * 60_000).toISOString(),
      until: new Date(at + 70 * 60_000).toISOString(),
    });
    const taker = await approvedRunner();
    return { who: taker, url: `/api/relay-offers/${offer.id}/take` };
  },
  'POST /api/parcels/{id}/proof/photo': async () => {
    const { carrier, parcel } = await carried();
    return { who: carrier, url: `/api/parcels/${parcel.id}/proof/photo`, multipart: photoBody() };
  },
  'POST /api/parcels/{id}/attempts/{number}/photo': async () => {
    const { carrier, parcel } = await carried();
    await api(carrier, 'POST', `/api/parcels/${parcel.id}/attempts`, {
      reason: 'nobody_home',
      position: { ...DOOR, accuracy: 5 },
    });
    return { who: carrier, url: `/api/parcels/${parcel.id}/attempts/1/photo`, multipart: photoBody() };
  },
  'POST /api/parcels/{id}/incidents': async () => {
    const { carrier, parcel } = await carried();
    return {
      who: carrier,
      url: `/api/parcels/${parcel.id}/incidents`,
      payload: { kind: 'damaged', description: 'Wet box' },
    };
  },
  'POST /api/incidents/{id}/photos': async () => {
    const { carrier, parcel } = await carried();
    const incident = await api<{ id: number }>(carrier, 'POST', `/api/parcels/${parcel.id}/incidents`, {
      kind: 'damaged',
      description: 'Wet box',
    });
    return { who: carrier, url: `/api/incidents/${incident.id}/photos`, multipart: photoBody() };
  },
  'POST /api/incidents/{id}/resolve': async () => {
    const { carrier, parcel } = await carried();
    const incident = await api<{ id: number }>(carrier, 'POST', `/api/parcels/${parcel.id}/incidents`, {
      kind: 'lost',
      description: 'Stolen bag',
    });
    return {
      who: admin,
      url: `/api/incidents/${incident.id}/resolve`,
      payload: { decision: 'write_off', note: 'Gone' },
    };
  },
  'POST /api/drop-points': async () => ({ who: admin, url: '/api/drop-points', payload: dropPointBody() }),
  'PUT /api/drop-points/{id}': async () => {
    const point = await api<{ id: number }>(admin, 'POST', '/api/drop-points', dropPointBody());
    return { who: admin, url: `/api/drop-points/${point.id}`, payload: dropPointBody({ name: 'Renamed' }) };
  },
  'POST /api/parcels/{id}/drop-point': async () => {
    const { carrier, parcel } = await carried();
    const point = await api<{ id: number }>(admin, 'POST', '/api/drop-points', dropPointBody());
    return { who: carrier, url: `/api/parcels/${parcel.id}/drop-point`, payload: { dropPointId: point.id } };
  },
  'POST /api/parcels/{id}/release': async () => {
    const { staff, receiver, parcel } = await leftAtDropPoint();
    const { pin } = await api<{ pin: string }>(receiver, 'GET', `/api/parcels/${parcel.id}/handover-pin`);
    return { who: staff, url: `/api/parcels/${parcel.id}/release`, payload: { pin } };
  },
  'POST /api/parcels/{id}/take-from-drop-point': async () => {
    const { staff, parcel, point } = await leftAtDropPoint();
    await t.store.db
      .updateTable('parcels')
      .set({ at_drop_point_since: new Date(Date.now() - 30 * 86_400_000).toISOString() })
      .where('id', '=', parcel.id)
      .execute();
    await returnUncollectedParcels(t.store.db, app.changeFeed, 7);
    const { items } = await api<{ items: { id: string; returnPin: string | null }[] }>(
      staff,
      'GET',
      `/api/drop-points/${point.id}/parcels`,
    );
    const pin = items.find((item) => item.id === parcel.id)?.returnPin;
    return { who: await approvedRunner(), url: `/api/parcels/${parcel.id}/take-from-drop-point`, payload: { pin } };
  },
  'POST /api/parcels/{id}/refused-at-drop-point': async () => {
    const { staff, parcel } = await leftAtDropPoint();
    return { who: staff, url: `/api/parcels/${parcel.id}/refused-at-drop-point` };
  },
  'PUT /api/parcels/{id}/rating': async () => {
    const { sender, parcel } = await delivered();
    return { who: sender, url: `/api/parcels/${parcel.id}/rating`, payload: { stars: 5, comment: 'Quick' } };
  },
  'POST /api/mail/unsubscribe': async () => {
    // The sender stops a kind of their status mail from the page, signed in.
    const sender = await signUp(app);
    const { id } = await app.store.db
      .selectFrom('accounts')
      .select('id')
      .where('user_name', '=', sender.account.userName)
      .executeTakeFirstOrThrow();
    const token = stopToken(mailKeys(app.config.sessionSecret), { accountId: id, kind: 'delivered' });
    return { who: sender, url: '/api/mail/unsubscribe', payload: { token } };
  },
  'POST /api/ratings/{id}/comment/hide': async () => {
    const { ratingId } = await commented();
    return { who: admin, url: `/api/ratings/${ratingId}/comment/hide`, payload: { reason: 'Abusive' } };
  },
  'POST /api/ratings/{id}/comment/show': async () => {
    const { ratingId } = await commented();
    await api(admin, 'POST', `/api/ratings/${ratingId}/comment/hide`, { reason: 'Abusive' });
    return { who: admin, url: `/api/ratings/${ratingId}/comment/show` };
  },
  'POST /api/parcels/{id}/not-received': async () => {
    const { sender, parcel } = await delivered();
    return { who: sender, url: `/api/parcels/${parcel.id}/not-received`, payload: { description: 'Never came' } };
  },
  'POST /api/reports/{id}/resolve': async () => {
    const { sender, parcel } = await delivered();
    const report = await api<{ id: number }>(sender, 'POST', `/api/parcels/${parcel.id}/not-received`, {
      description: 'Never came',
    });
    return { who: admin, url: `/api/reports/${report.id}/resolve`, payload: { resolution: 'Found at a neighbour' } };
  },
  'POST /api/runners': async () => {
    const { role: _role, ...account } = buildRegistration();
    return { who: admin, url: '/api/runners', payload: account };
  },
  'POST /api/runners/{userName}/approve': async () => {
    const runner = await signUp(app, { role: 'runner' });
    return { who: admin, url: `/api/runners/${runner.account.userName}/approve` };
  },
  'POST /api/runners/{userName}/suspend': async () => {
    const runner = await approvedRunner();
    return { who: admin, url: `/api/runners/${runner.account.userName}/suspend`, payload: { reason: 'Complaints' } };
  },
  'POST /api/runners/{userName}/unsuspend': async () => {
    const runner = await approvedRunner();
    await api(admin, 'POST', `/api/runners/${runner.account.userName}/suspend`, { reason: 'Complaints' });
    return { who: admin, url: `/api/runners/${runner.account.userName}/unsuspend` };
  },
  'POST /api/me/push-devices': async () => {
    devices += 1;
    // Living where no parcel here goes, sending none: nothing is ever pushed to this device.
    const someone = await signUp(app, { address: `7621 Pécs, Király utca ${devices}` });
    return { who: someone, url: '/api/me/push-devices', payload: pushSubscription() };
  },
  'POST /api/trips/matches': async () => {
    const runner = await approvedRunner();
    return { who: runner, url: '/api/trips/matches', payload: TRIP };
  },
  'POST /api/me/trips': async () => {
    const runner = await approvedRunner();
    // Paused: no new parcel is offered to it while the file runs.
    return {
      who: runner,
      url: '/api/me/trips',
      payload: { label: 'Work', ...TRIP, weekdays: [1, 2, 3, 4, 5, 6, 7], time: '07:30', paused: true },
    };
  },
};

// ---- The fingerprint ----

/** Tables whose row counts say nothing about a request's effect. */
const NOT_EFFECTS: Record<string, string> = {
  // PostgreSQL's abuse-limit windows (db/rate-limits.ts): every request counts in them, a new
  // window is a new row, and a due hit sweeps expired ones — answered or not, applied or not.
  rate_limits: 'abuse-limit counters, one hit per request whatever it did',
  // The geocoder's answers, written by a parcel's create before its change's transaction: whether
  // an address is new to it depends on what was asked before, not on this request.
  geocode_cache: 'a cache of the geocoder',
  // Parcels per map cell and status, kept by triggers (migration 0004): a row appears the first
  // time a cell meets a status, so its count depends on where earlier parcels were. What it counts
  // is the parcels table's, which is counted.
  parcel_map_cells: "an aggregate of parcels' positions",
  // PostgreSQL: the same aggregate's deltas (migration 0028), emptied by the fold every second.
  parcel_map_cell_deltas: "the map counts' deltas, folded into parcel_map_cells in the background",
};

let tableNames: string[] | undefined;
/**
 * Every table the app has in this test's database, less NOT_EFFECTS. On SQLite not its own tables
 * (sqlite_*) nor the shadow tables behind a virtual one (the account search's FTS5 segments, merged
 * as the index sees fit); the virtual table itself is counted.
 */
async function effectTables(): Promise<string[]> {
  if (tableNames) return tableNames;
  const { db, dialect, pgSchema } = t.store;
  const names =
    dialect === 'postgres'
      ? await sql<{ name: string }>`
          select table_name as name from information_schema.tables
          where table_schema = ${pgSchema ?? 'public'} and table_type = 'BASE TABLE'`.execute(db)
      : await sql<{ name: string }>`
          select name from pragma_table_list
          where schema = 'main' and type in ('table', 'virtual') and name not like 'sqlite%'`.execute(db);
  tableNames = names.rows.map((row) => row.name).filter((name) => !(name in NOT_EFFECTS));
  tableNames.sort();
  return tableNames;
}

/** Waits until the change feed's listeners that write (push claims) have handled every change committed so far. */
async function settle() {
  const newest = await t.store.db
    .selectFrom('change_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  const id = Number(newest?.id ?? 0);
  await Promise.all([app.push.settledThrough(id), app.tripOffers.settledThrough(id)]);
}

const VERSIONS = 'sum of parcels.version';

async function fingerprint(): Promise<Record<string, number>> {
  await settle();
  const { db } = t.store;
  const counts: Record<string, number> = {};
  for (const table of await effectTables()) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  const { rows } = await sql<{ n: number | string | null }>`select sum(version) as n from parcels`.execute(db);
  counts[VERSIONS] = Number(rows[0]?.n ?? 0);
  return counts;
}

/** What changed between two fingerprints: only the entries that moved. */
function difference(before: Record<string, number>, after: Record<string, number>) {
  const moved: Record<string, number> = {};
  for (const [name, count] of Object.entries(after)) {
    const by = count - (before[name] ?? 0);
    if (by !== 0) moved[name] = by;
  }
  return moved;
}

// ---- Answers ----

const replayed = (answer: LightMyRequestResponse) => answer.headers[REPLAYED_HEADER] === 'true';

function errorOf(answer: LightMyRequestResponse): { code: string; message: string } | undefined {
  if (!String(answer.headers['content-type'] ?? '').startsWith('application/json')) return undefined;
  return (answer.json() as { error?: { code: string; message: string } }).error;
}

const inFlight = (answer: LightMyRequestResponse) =>
  answer.statusCode === 409 && !replayed(answer) && errorOf(answer)?.code === 'idempotency_key_in_flight';

/** An answer as a failure names it: status, replayed or not, and the refusal's code. */
const described = (answer: LightMyRequestResponse) =>
  [answer.statusCode, replayed(answer) ? 'replayed' : '', errorOf(answer)?.code ?? ''].filter(Boolean).join(' ');

/** `/api/parcels/{id}/pickup` → a pattern its URLs match. */
const urlPattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`);

describe('the routes that take part', () => {
  it('are exactly the rows of this file: every POST and PUT the OpenAPI document lists with Idempotency-Key', () => {
    const document = app.swagger() as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    };
    const takingPart = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) =>
          (operation.parameters ?? []).some(
            (parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === IDEMPOTENCY_KEY_HEADER,
          ),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(takingPart.length).toBeGreaterThan(0);
    expect(
      takingPart.filter((route) => !(route in ROUTES)),
      'routes that take part with no row here: add one',
    ).toEqual([]);
    expect(
      Object.keys(ROUTES).filter((route) => !takingPart.includes(route)),
      'rows for routes that no longer take part',
    ).toEqual([]);
  });
});

describe('the same Idempotency-Key sent concurrently', () => {
  it.each(Object.keys(ROUTES))(
    '%s: five copies at once have the effect of one, and one original answer',
    async (route) => {
      const [method, path] = route.split(' ') as [Method, string];
      const prepare = ROUTES[route] as () => Promise<Prepared>;

      // One request with a fresh key: the effect of one.
      const alone = await prepare();
      expect(alone.url).toMatch(urlPattern(path));
      const beforeOne = await fingerprint();
      const single = await send(method, alone, newKey(), nextAddress());
      const one = difference(beforeOne, await fingerprint());
      expect(single.statusCode, `the prepared request must succeed: ${single.body}`).toBeGreaterThanOrEqual(200);
      expect(single.statusCode, `the prepared request must succeed: ${single.body}`).toBeLessThan(300);
      expect(replayed(single)).toBe(false);
      expect(one, 'one request takes its key once').toMatchObject({ idempotency_keys: 1 });

      // An equivalent fresh subject, and the same request five times at once under one new key.
      const again = await prepare();
      const key = newKey();
      const address = nextAddress();
      const before = await fingerprint();
      const answers = await Promise.all(Array.from({ length: COPIES }, () => send(method, again, key, address)));
      const five = difference(before, await fingerprint());

      expect
        .soft(five, `${COPIES} copies at once: the effect of one (${answers.map(described).join(', ')})`)
        .toEqual(one);

      const originals = answers.filter((answer) => !replayed(answer) && !inFlight(answer));
      expect.soft(originals.length, `exactly one answer is the original: ${answers.map(described).join(', ')}`).toBe(1);
      // Several originals: which of them the others should have matched is moot.
      const [original] = originals;
      if (!original || originals.length > 1) return;
      expect.soft(original.statusCode, `the original succeeds: ${original.body}`).toBeGreaterThanOrEqual(200);
      expect.soft(original.statusCode, `the original succeeds: ${original.body}`).toBeLessThan(300);
      for (const answer of answers) {
        if (answer === original) continue;
        if (replayed(answer)) {
          expect
            .soft({ status: answer.statusCode, body: answer.body }, 'a replay is the original answer')
            .toEqual({ status: original.statusCode, body: original.body });
        } else if (inFlight(answer)) {
          expect.soft(errorOf(answer)).toEqual({
            code: 'idempotency_key_in_flight',
            message: messages.idempotencyKeyInFlight,
          });
        }
      }
    },
  );
});
