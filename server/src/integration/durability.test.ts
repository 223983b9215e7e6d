import { Agent } from 'node:http';
import { accountResponseSchema } from '@csomag/domain/account';
import { type Parcel, type ParcelDetail, parcelDetailSchema, parcelSchema } from '@csomag/domain/parcel';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRegistration } from '../test/harness.ts';
import {
  type Instance,
  instanceStores,
  isConnectionError,
  removeStores,
  request,
  startInstance,
  storeEnvironment,
} from '../test/instances.ts';

/**
 * `kill -9` under load: runners pick up and deliver parcels at once on a real instance, which is
 * killed with SIGKILL once some of their writes have been answered 200. A new instance on the same
 * data must show every one of those changes (issue 11: an acknowledged change is durable, group
 * commit or not). Writes unanswered at the kill may have committed or not; none may be half done.
 */

afterAll(removeStores);

const RUNNERS = 6;
const PARCELS = 60;
/** Answered writes before the kill: well inside the load, so writes are still in flight. */
const KILL_AFTER = 40;

interface Person {
  userName: string;
  cookie: string;
}

async function register(on: Instance, role: 'user' | 'runner'): Promise<Person> {
  const response = await request(on.url, '/api/auth/register', { method: 'POST', body: buildRegistration({ role }) });
  if (response.status !== 201 || !response.cookie) throw new Error(`register: ${response.status} ${response.text}`);
  return { userName: accountResponseSchema.parse(response.json).account.userName, cookie: response.cookie };
}

/** A parcel placed where the sender pinned it: its door is known, so a runner standing there may deliver. */
async function sendParcel(on: Instance, sender: Person, i: number) {
  const response = await request(on.url, '/api/parcels', {
    method: 'POST',
    cookie: sender.cookie,
    body: {
      senderAddress: '1052 Budapest, Váci utca 12',
      receiverAddress: `1117 Budapest, Október huszonharmadika utca ${i + 1}`,
      category: 'Könyv',
      weightGrams: 500,
      senderCoordinates: { lat: 47.4953, lng: 19.0536 },
      receiverCoordinates: { lat: 47.4746 + i / 10_000, lng: 19.0483 },
    },
  });
  if (response.status !== 201) throw new Error(`parcel: ${response.status} ${response.text}`);
  return parcelSchema.parse(response.json);
}

describe.each(instanceStores)('SIGKILL under load ($store)', ({ store, enabled }) => {
  it.runIf(enabled)(
    'keeps every pickup and delivery that was answered 200 before the kill, and none half done',
    async () => {
      const env = await storeEnvironment(store, `durability-${store}`);
      const first = await startInstance({ name: `durability-${store}`, env });
      const sender = await register(first, 'user');
      const runners = await Promise.all(Array.from({ length: RUNNERS }, () => register(first, 'runner')));
      const parcels: Parcel[] = [];
      for (let i = 0; i < PARCELS; i++) parcels.push(await sendParcel(first, sender, i));

      const pickedUp = new Map<string, string>();
      const delivered = new Set<string>();
      const unanswered: { parcelId: string; runner: string }[] = [];
      let answered = 0;
      const answer = () => {
        answered += 1;
        if (answered === KILL_AFTER) first.kill('SIGKILL');
      };
      let next = 0;
      await Promise.all(
        runners.map(async (runner) => {
          const agent = new Agent({ keepAlive: true, maxSockets: 1 });
          try {
            while (next < parcels.length) {
              const parcel = parcels[next++];
              if (!parcel) break;
              try {
                const pickup = await request(first.url, `/api/parcels/${parcel.id}/pickup`, {
                  method: 'POST',
                  cookie: runner.cookie,
                  agent,
                });
                if (pickup.status !== 200) throw new Error(`pickup: ${pickup.status} ${pickup.text}`);
                pickedUp.set(parcel.id, runner.userName);
                answer();
                const deliver = await request(first.url, `/api/parcels/${parcel.id}/deliver`, {
                  method: 'POST',
                  cookie: runner.cookie,
                  agent,
                  body: { ...parcel.receiverCoordinates, accuracy: 5 },
                });
                if (deliver.status !== 200) throw new Error(`deliver: ${deliver.status} ${deliver.text}`);
                delivered.add(parcel.id);
                answer();
              } catch (error) {
                if (!isConnectionError(error) && !/socket hang up/.test(String(error))) throw error;
                unanswered.push({ parcelId: parcel.id, runner: runner.userName });
                return;
              }
            }
          } finally {
            agent.destroy();
          }
        }),
      );
      expect((await first.exited).signal).toBe('SIGKILL');
      expect(answered).toBeGreaterThanOrEqual(KILL_AFTER);

      const second = await startInstance({ name: `durability-${store}-again`, env });
      const cookieOf = new Map(runners.map((runner) => [runner.userName, runner.cookie]));
      const detail = async (parcelId: string, runner: string): Promise<ParcelDetail | number> => {
        const response = await request(second.url, `/api/parcels/${parcelId}`, { cookie: cookieOf.get(runner) });
        return response.status === 200 ? parcelDetailSchema.parse(response.json) : response.status;
      };
      const kinds = (parcel: ParcelDetail) => parcel.events.map((event) => event.kind);

      const lost: string[] = [];
      for (const [parcelId, runner] of pickedUp) {
        const parcel = await detail(parcelId, runner);
        const wanted = delivered.has(parcelId) ? 'delivered' : 'in_transit';
        if (typeof parcel === 'number' || parcel.runner !== runner || !kinds(parcel).includes('picked_up')) {
          lost.push(`pickup of ${parcelId}`);
        } else if (wanted === 'delivered' && (parcel.status !== 'delivered' || !kinds(parcel).includes('delivered'))) {
          lost.push(`delivery of ${parcelId}`);
        }
      }
      expect(lost).toEqual([]);

      // What was in flight either happened with its timeline event or not at all.
      for (const { parcelId, runner } of unanswered) {
        const parcel = await detail(parcelId, runner);
        if (typeof parcel === 'number') continue; // not picked up by this runner: its pickup never committed
        const events = kinds(parcel);
        expect(events.filter((kind) => kind === 'picked_up')).toHaveLength(1);
        expect(events.includes('delivered')).toBe(parcel.status === 'delivered');
      }
    },
  );
});
