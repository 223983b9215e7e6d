import { parcelIdSchema } from '@csomag/domain/parcel';
import {
  notReceivedBodySchema,
  reportDetailSchema,
  reportListQuerySchema,
  reportListSchema,
  reportParamsSchema,
  reportSchema,
  resolveReportBodySchema,
} from '@csomag/domain/trust';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { parcelGuard } from '../parcels/policy.ts';
import { reportGuard } from './policy.ts';
import { getReport, listReports, reportNotReceived, resolveReport } from './service.ts';

/** 'Nem érkezett meg' reports (issue 15): made by a delivered parcel's sender or receiver, resolved by the back office. */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.store.db;

  app.post(
    '/parcels/:id/not-received',
    {
      onRequest: parcelGuard('report'),
      schema: {
        tags: ['reports'],
        summary: 'Report a delivered parcel as not received: its sender or receiver, within 7 days',
        params: z.object({ id: parcelIdSchema }),
        body: notReceivedBodySchema,
        response: {
          201: reportSchema,
          ...errorResponses(
            ...GUARD_CODES,
            'parcel_not_found',
            'report_not_party',
            'report_not_delivered',
            'report_too_late',
            'report_exists',
          ),
        },
      },
    },
    async (request, reply) => {
      const reporter = signedIn(request);
      const report = await reportNotReceived(db, reporter, request.params.id, request.body.description);
      request.log.info(
        { parcelId: report.parcelId, reportId: report.id, by: reporter.user_name },
        'not received reported',
      );
      return reply.status(201).send(report);
    },
  );

  app.get(
    '/reports',
    {
      onRequest: reportGuard('list'),
      schema: {
        tags: ['reports'],
        summary: 'Not-received reports, open or resolved, newest first (superadmin)',
        querystring: reportListQuerySchema,
        response: { 200: reportListSchema, ...errorResponses(...GUARD_CODES, 'invalid_cursor') },
      },
    },
    async (request) => listReports(db, request.query),
  );

  app.get(
    '/reports/:id',
    {
      onRequest: reportGuard('view'),
      schema: {
        tags: ['reports'],
        summary: "A report with the parcel's timeline, custody chain and where its proof is read (superadmin)",
        params: reportParamsSchema,
        response: {
          200: reportDetailSchema,
          ...errorResponses(...GUARD_CODES, 'report_not_found', 'parcel_not_found'),
        },
      },
    },
    async (request) => {
      // Linked only when this server serves proofs (issue 15's proof photos and signatures).
      const proofs = app.hasRoute({ method: 'GET', url: '/api/parcels/:id/proofs' });
      return getReport(db, signedIn(request), request.params.id, (parcelId) =>
        proofs ? `/api/parcels/${encodeURIComponent(parcelId)}/proofs` : null,
      );
    },
  );

  app.post(
    '/reports/:id/resolve',
    {
      onRequest: reportGuard('resolve'),
      schema: {
        tags: ['reports'],
        summary: 'Resolve a report with the back office’s decision (recorded with who and when)',
        params: reportParamsSchema,
        body: resolveReportBodySchema,
        response: { 200: reportSchema, ...errorResponses(...GUARD_CODES, 'report_not_found', 'report_resolved') },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const report = await resolveReport(db, admin, request.params.id, request.body.resolution);
      request.log.info({ reportId: report.id, by: admin.user_name }, 'report resolved');
      return report;
    },
  );
};
