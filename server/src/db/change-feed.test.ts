import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testStore } from '../test/harness.ts';
import { isParcelEntry, type LoggedChange, type ParcelChange } from './change-feed.ts';

let t: TestApp;
const heard: LoggedChange<ParcelChange>[] = [];
beforeAll(async () => {
  t = await createTestApp();
  t.app.changeFeed.subscribe((entry) => {
    if (isParcelEntry(entry)) heard.push(entry);
  });
});
afterAll(() => t.close());

const change = (parcelId: string): ParcelChange => ({
  kind: 'runner_located',
  parcelId,
  status: 'in_transit',
  runner: 'futar',
  senderUser: 'felado',
  receiverKey: 'x',
  previous: { status: 'in_transit', runner: 'futar', receiverKey: 'x' },
});

/** What this instance has heard of the given parcels, in the order it heard them. */
async function hearOf(parcelIds: string[]): Promise<LoggedChange<ParcelChange>[]> {
  const wanted = new Set(parcelIds);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = heard.filter((entry) => wanted.has(entry.change.parcelId));
    if (found.length >= wanted.size || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the change log', () => {
  it('numbers changes in commit order: what listeners hear and what the log replays agree, a transaction’s own in order', async () => {
    const tag = `order${Date.now().toString(36)}`;
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.app.changeFeed.transaction(async (_trx, publish) => {
          await publish(change(`${tag}-${i}-a`));
          await publish(change(`${tag}-${i}-b`));
        }),
      ),
    );
    const entries = await hearOf(Array.from({ length: 30 }, (_, i) => [`${tag}-${i}-a`, `${tag}-${i}-b`]).flat());
    expect(entries).toHaveLength(60);
    const ids = entries.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(60);
    for (const entry of entries.filter(({ change }) => change.parcelId.endsWith('-a'))) {
      const second = entries.find(({ change }) => change.parcelId === entry.change.parcelId.replace(/-a$/, '-b'));
      expect(second?.id).toBe(entry.id + 1);
    }
    const replayed = await t.app.changeFeed.since((ids[0] as number) - 1, 1000);
    expect(
      replayed
        ?.filter(isParcelEntry)
        .filter((entry) => entry.change.parcelId.startsWith(tag))
        .map((entry) => entry.id),
    ).toEqual(ids);
  });
});

/** A connection of its own to the test's schema, outside the app: what another instance's transaction does. */
async function connect() {
  const client = new pg.Client({
    connectionString: process.env.TEST_DATABASE_URL,
    options: `-c search_path=${t.store.pgSchema} -c csomagkuldo.change_channel=csk_changes_${t.store.pgSchema}`,
  });
  await client.connect();
  return client;
}

describe.runIf(testStore === 'postgres')('the change log on PostgreSQL', () => {
  it('gives the larger id to the transaction that commits last, whichever wrote its change first', async () => {
    const [first, second] = [await connect(), await connect()];
    try {
      const tag = `late${Date.now().toString(36)}`;
      // As the change feed writes a change: a placeholder id, the real one given at COMMIT.
      const write = (client: pg.Client, parcelId: string) =>
        client.query(
          `insert into change_log (id, created_ms, request_id, change)
           values (-nextval('change_log_placeholder_seq'), $1, null, $2)`,
          [Date.now(), JSON.stringify(change(parcelId))],
        );
      await first.query('begin');
      await write(first, `${tag}-written-first`);
      await second.query('begin');
      await write(second, `${tag}-written-second`);
      await second.query('commit');
      await first.query('commit');
      const entries = await hearOf([`${tag}-written-first`, `${tag}-written-second`]);
      expect(entries.map((entry) => entry.change.parcelId)).toEqual([`${tag}-written-second`, `${tag}-written-first`]);
      expect((entries[0]?.id ?? 0) < (entries[1]?.id ?? 0)).toBe(true);
      const { rows } = await first.query<{ n: number }>('select count(*)::int as n from change_log where id < 0');
      expect(rows[0]?.n).toBe(0);
    } finally {
      await first.end();
      await second.end();
    }
  });

  it('leaves a row written with its id by an older release as it is', async () => {
    const client = await connect();
    try {
      const { rows } = await client.query<{ id: number }>(
        `insert into change_log (created_ms, request_id, change) values ($1, null, $2) returning id`,
        [Date.now(), JSON.stringify(change('older-release'))],
      );
      const id = rows[0]?.id;
      const kept = await client.query('select id from change_log where id = $1', [id]);
      expect(kept.rowCount).toBe(1);
    } finally {
      await client.end();
    }
  });
});
