import { apiErrorSchema } from '@csomag/domain/errors';
import { geocodeQuerySchema, geocodeResponseSchema } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import { ROLES } from '@csomag/domain/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { unprocessable } from '../../errors.ts';
import { requireRole } from '../../plugins/auth.ts';

export const geoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/geocode',
    {
      onRequest: requireRole(...ROLES),
      schema: {
        tags: ['geo'],
        summary: 'Places an address on the map (as the sender types)',
        querystring: geocodeQuerySchema,
        response: { 200: geocodeResponseSchema, 400: apiErrorSchema, 401: apiErrorSchema, 422: apiErrorSchema },
      },
    },
    async (request) => {
      const found = await app.geocoder.geocode(request.query.q);
      if (!found) throw unprocessable(messages.geocodeFailed, { q: messages.geocodeFailed });
      return { lat: found.lat, lng: found.lng, label: found.label, precision: found.precision };
    },
  );
};
