import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { listenLocally, openEventStream } from '../../test/sse.ts';

let t: TestApp;
let baseUrl: string;
let people: Record<'anonymous' | 'user' | 'runner' | 'superadmin', SignedIn | null>;
let parcelId: string;
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await listenLocally(t.app);
  const user = await signUp(t.app);
  people = {
    anonymous: null,
    user,
    runner: await signUp(t.app, { role: 'runner' }),
    superadmin: await signInSuperadmin(t.app),
  };
  parcelId = (await sendParcel(t.app, user.cookie)).id;
});
afterAll(() => t.close());

/** Each topic and the HTTP reads it is the live side of (events/topics.ts TOPIC_READS). */
const topics = (): Record<string, string[]> => ({
  parcels: ['/api/parcels', '/api/parcels/waiting'],
  me: ['/api/me/sent-parcels', '/api/me/incoming-parcels', '/api/me/assigned-parcels'],
  [`parcel:${parcelId}`]: [`/api/tracking/${parcelId}`],
});

const allowed = (status: number) => status !== 401 && status !== 403;

describe('the live topics ask the same policy as the HTTP reads', () => {
  for (const who of ['anonymous', 'user', 'runner', 'superadmin'] as const) {
    it(`opens a topic to ${who} exactly when one of its reads is open to them`, async () => {
      const headers = people[who] ? { cookie: people[who].cookie } : {};
      for (const [topic, reads] of Object.entries(topics())) {
        const statuses = await Promise.all(
          reads.map(async (url) => (await t.app.inject({ method: 'GET', url, headers })).statusCode),
        );
        const stream = await openEventStream(baseUrl, topic, headers);
        stream.close();
        expect(allowed(stream.status), `${who} ${topic} (reads: ${statuses.join(', ')})`).toBe(statuses.some(allowed));
        // Refused the same way: 401 without a session, 403 for the wrong account.
        if (!allowed(stream.status)) expect(stream.status).toBe(who === 'anonymous' ? 401 : 403);
      }
    });
  }
});
