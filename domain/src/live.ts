import { z } from 'zod';
import { PARCEL_EVENT_KINDS, PARCEL_STATUSES, parcelIdSchema } from './parcel.ts';

/**
 * Live updates over Server-Sent Events (DESIGN §5): GET /api/events?topics=a,b.
 * - `parcel:<id>` anyone: changes to that parcel (the tracking page)
 * - `parcels`     superadmin: every change; runner: changes to the waiting list, and relay offers
 * - `me`          user: parcels they sent or addressed to their address; runner: parcels they carry
 */
export type LiveTopic = 'parcels' | 'me' | `parcel:${string}`;

export const LIVE_EVENT = 'change';
export const MAX_LIVE_TOPICS = 20;

/**
 * Not a change of the parcel either: a relay offer for it was made, withdrawn or reserved (issue 14,
 * docs/decisions/0022). Sent on `parcels` to every runner and the superadmin only (not to its
 * sender or receiver), so the runners' offer lists refetch; no timeline event is written for it.
 */
export const RELAY_OFFER_KIND = 'relay_offer';

/**
 * A parcel changed, or its runner moved (so tracking pages refresh the runner's position), or a
 * relay offer for it changed.
 */
export const LIVE_CHANGE_KINDS = [...PARCEL_EVENT_KINDS, 'runner_located', RELAY_OFFER_KIND] as const;
export type LiveChangeKind = (typeof LIVE_CHANGE_KINDS)[number];

/**
 * Not a change of the parcel but an offer to one runner (issue 13, docs/decisions/0021): a new
 * parcel fits one of their active saved trips. Sent on their `me` topic only, without an `id:`
 * line (offers are not replayed on reconnect), with the trip and the minutes it adds.
 */
export const TRIP_OFFER_KIND = 'trip_offer';

/** The `data:` of every `event: change` message: enough to patch or refetch, nothing private. */
export const liveChangeSchema = z.object({
  topic: z.string(),
  kind: z.enum([...LIVE_CHANGE_KINDS, TRIP_OFFER_KIND]),
  parcelId: z.string(),
  status: z.enum(PARCEL_STATUSES),
  /** trip_offer only: the saved trip's id and the whole minutes the parcel adds to it. */
  tripId: z.string().optional(),
  addedMinutes: z.number().int().optional(),
});
export type LiveChange = z.infer<typeof liveChangeSchema>;

export const parcelTopic = (parcelId: string): LiveTopic => `parcel:${parcelId}`;

/** Reads `a,b,c` into distinct topics; null when any of them is not a topic (or too many). */
export function parseTopics(raw: string): LiveTopic[] | null {
  const topics = new Set<LiveTopic>();
  for (const part of raw.split(',')) {
    const topic = part.trim();
    if (topic === 'parcels' || topic === 'me') {
      topics.add(topic);
      continue;
    }
    if (!topic.startsWith('parcel:')) return null;
    const id = parcelIdSchema.safeParse(topic.slice('parcel:'.length));
    if (!id.success) return null;
    topics.add(parcelTopic(id.data));
  }
  return topics.size > 0 && topics.size <= MAX_LIVE_TOPICS ? [...topics] : null;
}
