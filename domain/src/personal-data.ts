import { z } from 'zod';
import { messages } from './messages.ts';

/**
 * 'Adataim letöltése' (issue 29; GDPR Art. 15 and 20): everything the service keeps about a person,
 * machine-readable. Each section is the stored rows as they are (column names as in the database),
 * without what is no one's to read: password hashes, session tokens, push keys, photo bytes.
 */
const rows = z.array(z.record(z.string(), z.unknown()));
export const personalDataSchema = z.object({
  exportedAt: z.string(),
  account: z.record(z.string(), z.unknown()),
  parcelsSent: rows,
  parcelsReceived: rows,
  parcelsCarried: rows,
  parcelEvents: rows,
  ratingsGiven: rows,
  ratingsReceived: rows,
  savedTrips: rows,
  pushDevices: rows,
  mutedPushKinds: rows,
  mutedMailKinds: rows,
  reportsFiled: rows,
  incidentsReported: rows,
  mailSent: rows,
});
export type PersonalData = z.infer<typeof personalDataSchema>;

/** DELETE /api/users/:userName: the password again, so a session left open cannot erase anyone. */
export const eraseAccountBodySchema = z.object({
  password: z.string({ error: messages.wrongPassword }).min(1, { error: messages.wrongPassword }).max(200),
});
export type EraseAccountBody = z.infer<typeof eraseAccountBodySchema>;

/** What an erased account's name fields read afterwards: nobody's. */
export const erasedUserName = (id: number) => `torolt_${id}`;
