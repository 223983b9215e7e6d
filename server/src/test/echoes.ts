import type { FastifyInstance } from 'fastify';
import { expect, vi } from 'vitest';

/**
 * A wait for this instance to have heard every change committed so far. PostgreSQL brings an
 * instance's own changes back through LISTEN a moment after the write answered, and each drops
 * the reads it touches once more; a test that counts on a read staying in memory waits for that.
 */
export function echoesOf(app: FastifyInstance): () => Promise<void> {
  let lastHeard = 0;
  app.changeFeed.subscribe((entry) => {
    lastHeard = Math.max(lastHeard, entry.id);
  });
  return async () => {
    const newest = await app.store.db
      .selectFrom('change_log')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    await vi.waitFor(() => expect(lastHeard).toBeGreaterThanOrEqual(Number(newest?.id ?? 0)));
  };
}
