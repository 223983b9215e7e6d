import { PARCEL_EVENT_KINDS } from './parcel-states.ts';

export type { LiveChange } from './live-schemas.ts';

/**
 * Live updates over Server-Sent Events (DESIGN §5): GET /api/events?topics=a,b.
 * - `parcel:<id>` anyone: changes to that parcel (the tracking page)
 * - `parcels`     superadmin: every change; runner: changes to the waiting list, and relay offers
 * - `me`          user: parcels they sent or addressed to their address; runner: parcels they carry
 * No schema library here: a page that only listens (the public tracking page) loads zod with its
 * first change, from live-schemas.ts (ADR 0008).
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

export const parcelTopic = (parcelId: string): LiveTopic => `parcel:${parcelId}`;
