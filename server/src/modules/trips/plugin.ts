import fp from 'fastify-plugin';
import { TripOffers } from './trip-offers.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** New parcels offered to the runners whose saved trips they fit (docs/decisions/0021). */
    tripOffers: TripOffers;
  }
}

/** One offer finder per app instance, listening to the change feed once the app is ready. */
export const tripOffersPlugin = fp(async (app) => {
  const offers = new TripOffers(app.store.db, app.changeFeed, app.log, app.travelTimes);
  app.decorate('tripOffers', offers);
  app.addHook('onReady', async () => offers.start());
  app.addHook('onClose', () => offers.close());
});
