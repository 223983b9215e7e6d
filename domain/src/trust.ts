import { z } from 'zod';
import { messages } from './messages.ts';
import { listQuerySchema, pageOf, parcelDetailSchema } from './parcel.ts';
import { custodyChainSchema } from './relay.ts';

/**
 * Runner trust (issue 15): the back office approves and suspends runners
 * (POST /api/runners/:userName/approve·suspend·unsuspend), and senders and receivers report a
 * delivered parcel as not received ('Nem érkezett meg', POST /api/parcels/:id/not-received),
 * which the back office resolves (GET /api/reports, GET /api/reports/:id, POST /api/reports/:id/resolve).
 */

/** Days after delivery within which a parcel can be reported as not received. */
export const NOT_RECEIVED_DAYS = 7;
export const SUSPEND_REASON_MAX = 500;
export const REPORT_TEXT_MAX = 1000;

/** A runner's standing with the back office, beside SPEC's runner status field. */
export const runnerTrustSchema = z.object({
  /** Null: waiting for the back office's approval (RUNNER_APPROVAL=manual). */
  approvedAt: z.string().nullable(),
  suspendedAt: z.string().nullable(),
  suspendedReason: z.string().nullable(),
  /** 'Nem érkezett meg' reports still open on parcels this runner carried. */
  openReports: z.number().int(),
});
export type RunnerTrust = z.infer<typeof runnerTrustSchema>;

export const suspendBodySchema = z.object({
  reason: z
    .string({ error: messages.suspendReasonRequired })
    .trim()
    .min(1, { error: messages.suspendReasonRequired })
    .max(SUSPEND_REASON_MAX, { error: messages.suspendReasonTooLong }),
});

/** GET /api/runner-flags?userNames=a,b: the runner list's badges for the runners on one page. */
export const runnerFlagsQuerySchema = z.object({
  userNames: z
    .string()
    .max(5000, { error: messages.runnerFlagsTooMany })
    .transform((value) => value.split(',').filter((name) => name !== ''))
    .pipe(z.array(z.string().max(100)).max(100, { error: messages.runnerFlagsTooMany })),
});
export const runnerFlagsSchema = z.object({
  items: z.array(
    z.object({
      userName: z.string(),
      awaitingApproval: z.boolean(),
      suspended: z.boolean(),
      openReports: z.number().int(),
    }),
  ),
});
export type RunnerFlags = z.infer<typeof runnerFlagsSchema>;

/** A suspended runner's parcels still in transit: the back office reassigns them. */
export const runnerParcelsInTransitSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      senderAddress: z.string(),
      receiverAddress: z.string(),
      pickedUpAt: z.string().nullable(),
    }),
  ),
});

export const notReceivedBodySchema = z.object({
  description: z
    .string({ error: messages.reportDescriptionRequired })
    .trim()
    .min(1, { error: messages.reportDescriptionRequired })
    .max(REPORT_TEXT_MAX, { error: messages.reportDescriptionTooLong }),
});
export type NotReceivedBody = z.infer<typeof notReceivedBodySchema>;

export const resolveReportBodySchema = z.object({
  resolution: z
    .string({ error: messages.resolutionRequired })
    .trim()
    .min(1, { error: messages.resolutionRequired })
    .max(REPORT_TEXT_MAX, { error: messages.resolutionTooLong }),
});

export const REPORT_STATUSES = ['open', 'resolved'] as const;
export const reportListQuerySchema = listQuerySchema.extend({
  status: z.enum(REPORT_STATUSES, { error: messages.reportStatusInvalid }).default('open'),
});
export type ReportListQuery = z.infer<typeof reportListQuerySchema>;

export const reportSchema = z.object({
  id: z.number().int(),
  parcelId: z.string(),
  /** The reporter's user name (null: an account deleted since) and side. */
  reporter: z.string().nullable(),
  reporterRole: z.enum(['sender', 'receiver']),
  /** Who delivered the parcel (null: deleted since, or the parcel is gone). */
  runner: z.string().nullable(),
  description: z.string(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  resolution: z.string().nullable(),
});
export type Report = z.infer<typeof reportSchema>;

export const reportListSchema = pageOf(reportSchema);
export type ReportList = z.infer<typeof reportListSchema>;

/** GET /api/reports/:id: the report with what the back office decides on. */
export const reportDetailSchema = z.object({
  report: reportSchema,
  /** Null when the parcel was deleted since. */
  parcel: parcelDetailSchema.nullable(),
  custody: custodyChainSchema.nullable(),
  /** Where the delivery's proof (photo, signature) is read, when the server has one. */
  proofsUrl: z.string().nullable(),
});
export type ReportDetail = z.infer<typeof reportDetailSchema>;

export const reportParamsSchema = z.object({
  id: z.coerce
    .number({ error: messages.reportNotFound })
    .int({ error: messages.reportNotFound })
    .positive({ error: messages.reportNotFound }),
});
