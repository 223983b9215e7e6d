import fp from 'fastify-plugin';
import { PushNotifier } from './notifier.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Web Push notifications sent off the change feed (docs/decisions/0018). */
    push: PushNotifier;
  }
}

/** One notifier per app instance: it starts listening when the app is ready and stops on close. */
export const pushPlugin = fp(async (app) => {
  const notifier = new PushNotifier({
    db: app.store.db,
    changeFeed: app.changeFeed,
    tripOffers: app.tripOffers,
    vapid: app.config.vapid,
    log: app.log,
    registry: app.metrics.registry,
  });
  app.decorate('push', notifier);
  app.addHook('onReady', async () => notifier.start());
  // Before the change feed closes (hooks run in reverse order of registration).
  app.addHook('onClose', () => notifier.close());
});
