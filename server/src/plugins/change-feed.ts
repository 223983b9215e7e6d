import fp from 'fastify-plugin';
import { type ChangeFeed, createChangeFeed } from '../db/change-feed.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Committed parcel changes, for live updates (DESIGN §5). */
    changeFeed: ChangeFeed;
  }
}

/** One change feed per app instance: listening starts when the app is ready and stops on close. */
export const changeFeedPlugin = fp(async (app) => {
  const feed = createChangeFeed(app.store, app.log, { onListening: (up) => app.metrics.setListening(up) });
  app.decorate('changeFeed', feed);
  app.addHook('onReady', () => feed.start());
  app.addHook('onClose', () => feed.close());
});
