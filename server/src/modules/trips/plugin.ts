import fp from 'fastify-plugin';
import { TripOffers } from './trip-offers.ts';
import { WaitingPool } from './waiting-pool.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** New parcels offered to the runners whose saved trips they fit (docs/decisions/0021). */
    tripOffers: TripOffers;
    /** The waiting parcels' points in memory, the trip query's candidates (waiting-pool.ts). */
    waitingPool: WaitingPool;
  }
}

/** One offer finder and one waiting pool per app instance, listening to the change feed once the app is ready. */
export const tripOffersPlugin = fp(async (app) => {
  const offers = new TripOffers(app.store.db, app.changeFeed, app.log, app.travelTimes);
  app.decorate('tripOffers', offers);
  app.addHook('onReady', async () => offers.start());
  app.addHook('onClose', () => offers.close());
  const pool = new WaitingPool(app.store.db, app.changeFeed, app.log);
  app.decorate('waitingPool', pool);
  app.addHook('onReady', async () => pool.start());
  app.addHook('onClose', async () => pool.close());
});
