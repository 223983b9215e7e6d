import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { custody } from '../../db/migrations/0015-custody.ts';
import { accountRow, insertParcels } from '../../test/back-office.ts';
import { pickUp, storedParcel } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { returnUncollectedParcels } from '../drop-points/deadline.ts';
import { readChain, verifyAllChains, verifyChain } from './chain.ts';

let t: TestApp;
let admin: SignedIn;
let sender: SignedIn;
let runners: SignedIn[];
let staff: SignedIn;
let dropPointId: number;
const ids = new Map<string, number>();
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
  sender = await signUp(t.app);
  runners = await Promise.all([0, 1, 2].map(() => signUp(t.app, { role: 'runner' })));
  staff = await signUp(t.app);
  const point = await post(admin, '/api/drop-points', {
    name: 'Sarki trafik',
    kind: 'shop',
    address: '4025 Debrecen, Piac utca 20',
    location: { lat: 47.5316, lng: 21.6273 },
    openingHours: 'H-V 0:00-24:00',
    staff: [staff.account.userName],
  });
  dropPointId = point.json().id;
  for (const who of [sender, ...runners]) {
    const row = await t.store.db
      .selectFrom('accounts')
      .select('id')
      .where('user_name', '=', who.account.userName)
      .executeTakeFirstOrThrow();
    ids.set(who.account.userName, row.id);
  }
});
afterAll(() => t.close());

const post = (who: SignedIn, url: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: { cookie: who.cookie }, payload });

async function relay(parcelId: string, from: SignedIn, to: SignedIn) {
  const link = await post(from, `/api/parcels/${parcelId}/relay-token`);
  const token = new URL(link.json().url).searchParams.get('token') ?? '';
  return post(to, `/api/parcels/${parcelId}/relay`, { token });
}

async function handOverByQr(parcelId: string, holder: SignedIn) {
  const link = await post(holder, `/api/parcels/${parcelId}/handover-token`);
  const query = new URL(link.json().url).searchParams;
  return t.app.inject({
    method: 'POST',
    url: `/api/parcels/${parcelId}/handover`,
    payload: { token: query.get('token'), futar: query.get('futar'), felado: query.get('felado') },
  });
}

type Holder = { kind: 'sender' | 'runner' | 'receiver' | 'drop_point'; id: number | null };

/** The code the drop point's staff reads out for a parcel of theirs (to leave it there, or take it back). */
async function staffCode(parcelId: string, which: 'dropOffPin' | 'returnPin') {
  const answer = await t.app.inject({
    method: 'GET',
    url: `/api/drop-points/${dropPointId}/parcels`,
    headers: { cookie: staff.cookie },
  });
  const item = (answer.json().items as { id: string; dropOffPin: string | null; returnPin: string | null }[]).find(
    (each) => each.id === parcelId,
  );
  return item?.[which] ?? '000000';
}

async function expectHolder(parcelId: string, expected: Holder) {
  const row = await storedParcel(t.app, parcelId);
  expect({ kind: row.holder_kind, id: row.holder_id }).toEqual(expected);
  const chain = await readChain(t.store.db, parcelId);
  const last = chain.at(-1);
  expect({ kind: last?.to_kind, id: last?.to_id }).toEqual(expected);
  expect(last?.seq).toBe(row.custody_seq);
  expect(await verifyChain(t.store.db, parcelId)).toMatchObject({ ok: true, events: chain.length });
}

describe('custody', () => {
  it('a random sequence of pickups, hand-overs, failed attempts, returns, drop points and a hand-over at the end keeps the last event’s `to` the holder, never in the pool while a runner holds it, and the chain verifies', async () => {
    const often = (op: string, weight: number) => ({ arbitrary: fc.constant(op), weight });
    const step = fc.record({
      op: fc.oneof(
        often('attempt', 5),
        often('pickup', 1),
        often('relay', 2),
        often('refused', 1),
        often('return', 1),
        often('give_back', 1),
        often('deliver', 1),
        often('drop_off', 1),
        often('refused_at_counter', 1),
        often('deadline', 1),
        often('take_back', 2),
      ),
      runner: fc.nat(2),
    });
    const senderParty: Holder = { kind: 'sender', id: ids.get(sender.account.userName) ?? null };
    const somewhere = { lat: 47.53, lng: 21.62, accuracy: 10 };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const parcel = await sendParcel(t.app, sender.cookie);
        let holder: Holder = senderParty;
        let carrier: SignedIn | null = null;
        let attempts = 0;
        let returning = false;
        await expectHolder(parcel.id, holder);
        // Mostly picked up first: the steps after it are what the property is about.
        const run = steps.length % 4 === 0 ? steps : [{ op: 'pickup', runner: 0 }, ...steps];
        for (const { op, runner: index } of run) {
          const runner = runners[index] as SignedIn;
          const runnerId = ids.get(runner.account.userName) ?? null;
          // Mostly the carrier tries the door or turns back; now and then another runner (refused).
          const actor: SignedIn = index < 2 && carrier !== null ? carrier : runner;
          if (op === 'pickup') {
            const answer = await post(runner, `/api/parcels/${parcel.id}/pickup`);
            if (holder.kind === 'sender') {
              expect(answer.statusCode).toBe(200);
              holder = { kind: 'runner', id: runnerId };
              carrier = runner;
            } else expect(answer.statusCode).toBe(409);
          } else if (op === 'relay') {
            if (carrier === null) continue;
            const answer = await relay(parcel.id, carrier, runner);
            if (carrier === runner) expect(answer.json().error.code).toBe('relay_own_parcel');
            else {
              expect(answer.statusCode).toBe(200);
              holder = { kind: 'runner', id: runnerId };
              carrier = runner;
            }
          } else if (op === 'attempt' || op === 'refused') {
            const reason = op === 'refused' ? 'refused' : 'nobody_home';
            const answer = await post(actor, `/api/parcels/${parcel.id}/attempts`, { reason, position: somewhere });
            if (carrier !== actor) {
              expect(answer.statusCode).toBeGreaterThanOrEqual(400);
              continue;
            }
            expect(answer.statusCode).toBe(201);
            // The runner keeps it; a refusal or the second failed attempt turns it back.
            const turns: boolean = !returning && (reason === 'refused' || attempts + 1 >= 2);
            expect(answer.json().startedReturn).toBe(turns);
            attempts = turns ? 0 : attempts + 1;
            returning = returning || turns;
          } else if (op === 'return') {
            const answer = await post(actor, `/api/parcels/${parcel.id}/return`, { reason: 'Mégsem megy' });
            if (carrier === actor && !returning) {
              expect(answer.statusCode).toBe(200);
              returning = true;
              attempts = 0;
            } else expect(answer.statusCode).toBeGreaterThanOrEqual(400);
          } else if (op === 'drop_off') {
            // The carrier sends it to the drop point and leaves it there with the staff's code.
            const chosen = await post(actor, `/api/parcels/${parcel.id}/drop-point`, { dropPointId });
            if (carrier !== actor || returning) {
              expect(chosen.statusCode).toBeGreaterThanOrEqual(400);
              continue;
            }
            expect(chosen.statusCode).toBe(200);
            const pin = await staffCode(parcel.id, 'dropOffPin');
            expect((await post(actor, `/api/parcels/${parcel.id}/pin-handover`, { pin })).statusCode).toBe(200);
            holder = { kind: 'drop_point', id: dropPointId };
            carrier = null;
          } else if (op === 'refused_at_counter' || op === 'deadline') {
            const waitingForReceiver = holder.kind === 'drop_point' && !returning;
            if (op === 'refused_at_counter') {
              const answer = await post(staff, `/api/parcels/${parcel.id}/refused-at-drop-point`);
              if (waitingForReceiver) expect(answer.statusCode).toBe(200);
              else expect(answer.statusCode).toBeGreaterThanOrEqual(400);
            } else {
              await t.store.db
                .updateTable('parcels')
                .set({ at_drop_point_since: '2020-01-01T00:00:00.000Z' })
                .where('id', '=', parcel.id)
                .where('status', '=', 'at_drop_point')
                .execute();
              await returnUncollectedParcels(t.store.db, t.app.changeFeed, 7);
            }
            if (waitingForReceiver) {
              returning = true;
              attempts = 0;
            }
          } else if (op === 'take_back') {
            // A runner takes a parcel going back from the drop point, with the staff's code.
            const pin = await staffCode(parcel.id, 'returnPin');
            const answer = await post(runner, `/api/parcels/${parcel.id}/take-from-drop-point`, { pin });
            if (holder.kind === 'drop_point' && returning) {
              expect(answer.statusCode).toBe(200);
              holder = { kind: 'runner', id: runnerId };
              carrier = runner;
            } else expect(answer.statusCode).toBeGreaterThanOrEqual(400);
          } else if (op === 'give_back') {
            // 'Visszaadom' no longer puts a parcel back in the pool: there is no such call.
            expect((await post(runner, `/api/parcels/${parcel.id}/give-back`, { reason: 'Mégsem' })).statusCode).toBe(
              404,
            );
          } else {
            if (carrier === null) continue;
            expect((await handOverByQr(parcel.id, carrier)).statusCode).toBe(200);
            holder = returning ? senderParty : { kind: 'receiver', id: null };
            carrier = null;
            await expectHolder(parcel.id, holder);
            expect((await storedParcel(t.app, parcel.id)).status).toBe(returning ? 'returned' : 'delivered');
            break;
          }
          await expectHolder(parcel.id, holder);
          const row = await storedParcel(t.app, parcel.id);
          // In the pool exactly when its sender holds it and it never left them.
          expect(row.status === 'waiting').toBe(holder.kind === 'sender');
          expect({ attempts: row.attempts, returning: row.returning === 1 }).toEqual({ attempts, returning });
        }
      }),
      { numRuns: 30 },
    );
  });

  it('detects a changed, removed or reordered row, and a holder changed behind the chain’s back', async () => {
    const fresh = async () => {
      const parcel = await sendParcel(t.app, sender.cookie);
      await pickUp(t.app, (runners[0] as SignedIn).cookie, parcel.id);
      expect((await relay(parcel.id, runners[0] as SignedIn, runners[1] as SignedIn)).statusCode).toBe(200);
      expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true, events: 3 });
      return parcel.id;
    };
    const edit = (parcelId: string, seq: number) =>
      t.store.db.updateTable('custody_events').where('parcel_id', '=', parcelId).where('seq', '=', seq);

    let id = await fresh();
    await edit(id, 1)
      .set({ to_id: ids.get((runners[2] as SignedIn).account.userName) ?? 0 })
      .execute();
    expect(await verifyChain(t.store.db, id)).toEqual({
      parcelId: id,
      ok: false,
      events: 3,
      badSeq: 1,
      problem: 'hash',
    });

    id = await fresh();
    await edit(id, 2).set({ at: '2020-01-01T00:00:00.000Z' }).execute();
    expect(await verifyChain(t.store.db, id)).toMatchObject({ ok: false, badSeq: 2, problem: 'hash' });

    id = await fresh();
    await t.store.db.deleteFrom('custody_events').where('parcel_id', '=', id).where('seq', '=', 1).execute();
    expect(await verifyChain(t.store.db, id)).toMatchObject({ ok: false, badSeq: 2, problem: 'hash' });

    // Rehashing the edited row is not enough: the next row's prev_hash gives it away.
    id = await fresh();
    const [, picked] = await readChain(t.store.db, id);
    await edit(id, 1)
      .set({ hash: 'f'.repeat(64) })
      .execute();
    expect(picked?.hash).not.toBe('f'.repeat(64));
    expect(await verifyChain(t.store.db, id)).toMatchObject({ ok: false, badSeq: 1 });

    id = await fresh();
    await t.store.db
      .updateTable('parcels')
      .set({ holder_id: ids.get((runners[2] as SignedIn).account.userName) ?? 0 })
      .where('id', '=', id)
      .execute();
    expect(await verifyChain(t.store.db, id)).toMatchObject({ ok: false, badSeq: 2, problem: 'holder' });
  });

  it('ends a withdrawn or deleted parcel’s chain with an event to nobody, still verifying', async () => {
    const withdrawn = await sendParcel(t.app, sender.cookie);
    expect((await post(sender, `/api/parcels/${withdrawn.id}/cancel`)).statusCode).toBe(204);
    const deleted = await sendParcel(t.app, sender.cookie);
    await pickUp(t.app, (runners[0] as SignedIn).cookie, deleted.id);
    const answer = await t.app.inject({
      method: 'DELETE',
      url: `/api/parcels/${deleted.id}`,
      headers: { cookie: admin.cookie },
      payload: { reason: 'Hibás feladás' },
    });
    expect(answer.statusCode).toBe(204);
    for (const [parcelId, kind] of [
      [withdrawn.id, 'cancelled'],
      [deleted.id, 'deleted'],
    ] as const) {
      const chain = await readChain(t.store.db, parcelId);
      expect(chain.at(-1)).toMatchObject({ kind, to_kind: 'none' });
      expect(await verifyChain(t.store.db, parcelId)).toMatchObject({ ok: true });
    }
  });

  it('migration 0015 backfills every existing parcel with a chain that verifies', async () => {
    const other = await createTestApp();
    try {
      const owner = await signUp(other.app);
      const runner = await signUp(other.app, { role: 'runner' });
      const viaApi = await sendParcel(other.app, owner.cookie);
      await pickUp(other.app, runner.cookie, viaApi.id);
      const ownerRow = await accountRow(other.store, owner.account.userName);
      const points = [{ lat: 47.5, lng: 19.05 }];
      await insertParcels(other.store, ownerRow, points, 'waiting');
      await insertParcels(other.store, ownerRow, points, 'in_transit');
      await insertParcels(other.store, ownerRow, points, 'delivered');
      // Back to before 0015, then forward again, as an upgrade of an existing database would run it.
      const migration = custody(other.store.dialect);
      await migration.down?.(other.store.db);
      await migration.up(other.store.db);
      const verdicts = [];
      for await (const verdict of verifyAllChains(other.store.db)) verdicts.push(verdict);
      expect(verdicts).toHaveLength(4);
      expect(verdicts.every((verdict) => verdict.ok)).toBe(true);
      const kinds = await other.store.db
        .selectFrom('parcels')
        .select(['status', 'holder_kind', 'custody_seq'])
        .orderBy('custody_seq')
        .execute();
      expect(kinds.map((row) => [row.status, row.holder_kind, row.custody_seq])).toEqual([
        ['waiting', 'sender', 0],
        ['in_transit', 'runner', 1],
        ['in_transit', 'runner', 1],
        ['delivered', 'receiver', 2],
      ]);
      const count = await sql<{ n: number }>`select count(*) as n from custody_events`.execute(other.store.db);
      expect(Number(count.rows[0]?.n)).toBe(1 + 2 + 2 + 3);
    } finally {
      await other.close();
    }
  });
});
