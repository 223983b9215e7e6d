import { geocodeQuerySchema, geocodeResponseSchema } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, refuseField } from '../../errors.ts';
import { GUARD_CODES } from '../../plugins/auth.ts';
import { accountGuard } from '../users/policy.ts';

export const geoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/geocode',
    {
      onRequest: accountGuard('geocode'),
      schema: {
        tags: ['geo'],
        summary: 'Places an address on the map (as the sender types)',
        querystring: geocodeQuerySchema,
        response: { 200: geocodeResponseSchema, ...errorResponses(...GUARD_CODES, 'geocode_failed') },
      },
    },
    async (request) => {
      const found = await app.geocoder.geocode(request.query.q);
      if (!found) throw refuseField('geocode_failed', 'q', messages.geocodeFailed);
      return { lat: found.lat, lng: found.lng, label: found.label, precision: found.precision };
    },
  );
};
