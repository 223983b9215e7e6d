import {
  incidentBodySchema,
  incidentDetailSchema,
  incidentListQuerySchema,
  incidentListSchema,
  incidentParamsSchema,
  incidentSchema,
  resolveIncidentBodySchema,
} from '@csomag/domain/incidents';
import { parcelIdSchema } from '@csomag/domain/parcel';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { CARRIER_REFUSALS } from '../parcels/changes.ts';
import { incidentGuard } from './policy.ts';
import { getIncident, type IncidentsContext, listIncidents, reportIncidentOn, resolveIncident } from './service.ts';

/** Incidents (issue 28): reported by the runner carrying a parcel, decided by the back office. */
export const incidentRoutes: FastifyPluginAsyncZod = async (app) => {
  const context = (request: FastifyRequest): IncidentsContext => ({
    db: app.store.db,
    changes: app.changeFeed.forRequest(request.id),
  });

  app.post(
    '/parcels/:id/incidents',
    {
      onRequest: incidentGuard('report'),
      schema: {
        tags: ['incidents'],
        summary:
          'Report a parcel damaged or lost (the runner carrying it, or the staff of the drop point where it waits); photos follow at /api/incidents/:id/photos',
        params: z.object({ id: parcelIdSchema }),
        body: incidentBodySchema,
        response: { 201: incidentSchema, ...errorResponses(...GUARD_CODES, ...CARRIER_REFUSALS, 'incident_open') },
      },
    },
    async (request, reply) => {
      const incident = await reportIncidentOn(context(request), signedIn(request), request.params.id, request.body);
      request.log.info(
        { parcelId: incident.parcelId, incidentId: incident.id, kind: incident.kind },
        'incident reported',
      );
      return reply.status(201).send(incident);
    },
  );

  app.get(
    '/incidents',
    {
      onRequest: incidentGuard('list'),
      schema: {
        tags: ['incidents'],
        summary: 'Incidents, open or decided, newest first (superadmin)',
        querystring: incidentListQuerySchema,
        response: { 200: incidentListSchema, ...errorResponses(...GUARD_CODES, 'invalid_cursor') },
      },
    },
    async (request) => listIncidents(app.store.db, request.query),
  );

  app.get(
    '/incidents/:id',
    {
      onRequest: incidentGuard('view'),
      schema: {
        tags: ['incidents'],
        summary: "An incident with the parcel's timeline, custody chain and failed attempts (superadmin)",
        params: incidentParamsSchema,
        response: {
          200: incidentDetailSchema,
          ...errorResponses(...GUARD_CODES, 'incident_not_found', 'parcel_not_found'),
        },
      },
    },
    async (request) => getIncident(app.store.db, signedIn(request), request.params.id, app.config.returnAfterAttempts),
  );

  app.post(
    '/incidents/:id/resolve',
    {
      onRequest: incidentGuard('resolve'),
      schema: {
        tags: ['incidents'],
        summary:
          'Decide an incident once: continue, return to the sender, or write the parcel off as lost (recorded with who, when and why)',
        params: incidentParamsSchema,
        body: resolveIncidentBodySchema,
        response: {
          200: incidentSchema,
          ...errorResponses(
            ...GUARD_CODES,
            'incident_not_found',
            'incident_resolved',
            'incident_decision_impossible',
            'parcel_changed_meanwhile',
          ),
        },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const incident = await resolveIncident(context(request), admin, request.params.id, request.body);
      request.log.info(
        { incidentId: incident.id, decision: incident.decision, by: admin.user_name },
        'incident decided',
      );
      return incident;
    },
  );
};
