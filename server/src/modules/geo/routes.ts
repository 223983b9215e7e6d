import { geocodeQuerySchema, geocodeResponseSchema } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import { reverseGeocodeQuerySchema, reverseGeocodeResponseSchema } from '@csomag/domain/places';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, refuse } from '../../errors.ts';
import { GUARD_CODES } from '../../plugins/auth.ts';
import { PLACE_REFUSAL_CODES, placeAddressField } from '../places/geocoder.ts';
import { accountGuard } from '../users/policy.ts';

export const geoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/geocode',
    {
      onRequest: accountGuard('geocode'),
      schema: {
        tags: ['geo'],
        summary: 'Places an address on the map (as the sender types), at door, street or settlement precision',
        querystring: geocodeQuerySchema,
        response: { 200: geocodeResponseSchema, ...errorResponses(...GUARD_CODES, ...PLACE_REFUSAL_CODES) },
      },
    },
    async (request) => {
      const found = await placeAddressField(app.geocoder, request.query.q, 'q');
      return { lat: found.lat, lng: found.lng, label: found.label, precision: found.precision };
    },
  );

  app.get(
    '/geocode/reverse',
    {
      onRequest: accountGuard('geocode'),
      schema: {
        tags: ['geo'],
        summary: 'The nearest address or named place to a point (a dragged pin, a meeting point)',
        querystring: reverseGeocodeQuerySchema,
        response: { 200: reverseGeocodeResponseSchema, ...errorResponses(...GUARD_CODES, 'geocode_failed') },
      },
    },
    async (request) => {
      const found = await app.geocoder.reverse(request.query);
      if (!found) throw refuse('geocode_failed', messages.reverseGeocodeFailed);
      return found;
    },
  );
};
