import { z } from 'zod';
import { LIVE_CHANGE_KINDS, type LiveTopic, MAX_LIVE_TOPICS, parcelTopic, TRIP_OFFER_KIND } from './live.ts';
import { PARCEL_STATUSES, parcelIdSchema } from './parcel.ts';

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
