import { z } from 'zod';
import { attemptSchema } from './attempts.ts';
import { parcelMessageSchema } from './mail.ts';
import { messages } from './messages.ts';
import { listQuerySchema, pageOf, parcelDetailSchema } from './parcel.ts';
import { proofInfoSchema } from './proof.ts';
import { custodyChainSchema } from './relay.ts';

/**
 * Incidents ('Probléma bejelentése', issue 28, docs/decisions/0030): the runner holding a parcel
 * reports it damaged or lost, with photos; the back office reads the custody chain, the proofs and
 * the timeline and decides — carry on, send it back to its sender, or write it off as lost.
 */

export const INCIDENT_KINDS = ['damaged', 'lost'] as const;
export type IncidentKind = (typeof INCIDENT_KINDS)[number];
export const incidentKindLabels: Record<IncidentKind, string> = {
  damaged: messages.incidentKindDamaged,
  lost: messages.incidentKindLost,
};

export const INCIDENT_DECISIONS = ['continue', 'return', 'write_off'] as const;
export type IncidentDecision = (typeof INCIDENT_DECISIONS)[number];
export const incidentDecisionLabels: Record<IncidentDecision, string> = {
  continue: messages.incidentDecisionContinue,
  return: messages.incidentDecisionReturn,
  write_off: messages.incidentDecisionWriteOff,
};

/** Photos an incident may have. */
export const INCIDENT_PHOTOS_MAX = 5;

/** POST /api/parcels/:id/incidents: what happened, in a few words. */
export const incidentBodySchema = z.object({
  kind: z.enum(INCIDENT_KINDS, { error: messages.incidentKindInvalid }),
  description: z
    .string({ error: messages.incidentDescriptionInvalid })
    .trim()
    .min(3, { error: messages.incidentDescriptionInvalid })
    .max(1000, { error: messages.incidentDescriptionInvalid }),
});
export type IncidentBody = z.infer<typeof incidentBodySchema>;

export const INCIDENT_STATUSES = ['open', 'resolved'] as const;

export const incidentSchema = z.object({
  id: z.number().int(),
  parcelId: z.string(),
  kind: z.enum(INCIDENT_KINDS),
  description: z.string(),
  /** The reporting runner's user name (null: an account deleted since). */
  reporter: z.string().nullable(),
  createdAt: z.string(),
  /** The numbers of its photos (GET /api/incidents/:id/photos/:number). */
  photos: z.array(z.number().int()),
  decision: z.enum(INCIDENT_DECISIONS).nullable(),
  note: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
});
export type Incident = z.infer<typeof incidentSchema>;
export const incidentListSchema = pageOf(incidentSchema);
export type IncidentList = z.infer<typeof incidentListSchema>;

export const incidentListQuerySchema = listQuerySchema.extend({
  status: z.enum(INCIDENT_STATUSES, { error: messages.incidentStatusInvalid }).default('open'),
});
export type IncidentListQuery = z.infer<typeof incidentListQuerySchema>;

/** GET /api/incidents/:id: the incident with everything the decision rests on. */
export const incidentDetailSchema = z.object({
  incident: incidentSchema,
  /** Null when the parcel was deleted since. */
  parcel: parcelDetailSchema.nullable(),
  custody: custodyChainSchema.nullable(),
  attempts: z.array(attemptSchema),
  /** The parcel's photo and signature, as its proof list gives them. */
  proofs: z.array(proofInfoSchema),
  /** The mail written about the parcel, newest first (PARCEL_MESSAGES_LISTED at most). */
  messages: z.array(parcelMessageSchema),
});
export type IncidentDetail = z.infer<typeof incidentDetailSchema>;

export const incidentParamsSchema = z.object({
  id: z.coerce
    .number({ error: messages.incidentNotFound })
    .int({ error: messages.incidentNotFound })
    .positive({ error: messages.incidentNotFound }),
});

/** POST /api/incidents/:id/resolve: the back office's decision, with its reason. */
export const resolveIncidentBodySchema = z.object({
  decision: z.enum(INCIDENT_DECISIONS, { error: messages.incidentDecisionInvalid }),
  note: z
    .string({ error: messages.reasonInvalid })
    .trim()
    .min(3, { error: messages.reasonInvalid })
    .max(500, { error: messages.reasonInvalid }),
});
export type ResolveIncidentBody = z.infer<typeof resolveIncidentBodySchema>;
