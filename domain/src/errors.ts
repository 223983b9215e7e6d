import { z } from 'zod';

/** Stable machine codes that travel beside the Hungarian message. */
export const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'forbidden',
  // a browser sent a state-changing request from another site (CSRF)
  'cross_origin',
  'not_found',
  'conflict',
  // a QR handover link opened again after the receiver confirmed it
  'already_handed_over',
  'unprocessable',
  'rate_limited',
  'internal',
  // the database cannot be reached right now: try again shortly
  'unavailable',
  // this instance takes no traffic (database down, draining): the load balancer's readiness answer
  'not_ready',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The one error body every route answers with. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
