import { z } from 'zod';
import { userNameField } from './account.ts';
import { handoverLinkSchema, handoverSummarySchema } from './delivery.ts';
import { handoverPinField } from './handover-pin.ts';
import { messages } from './messages.ts';
import { coordinatesSchema } from './parcel.ts';

/**
 * Custody and the runner → runner hand-over (issue 14, docs/decisions/0022): who holds a parcel,
 * the chain of custody events, and the relay link's calls.
 */

/** Who may hold a parcel: exactly one at a time. */
export const CUSTODY_HOLDER_KINDS = ['sender', 'runner', 'neighbour', 'drop_point', 'receiver'] as const;
export type CustodyHolderKind = (typeof CUSTODY_HOLDER_KINDS)[number];
/** A custody event's ends: `none` before `created` and after `deleted` / `cancelled`. */
export type CustodyPartyKind = CustodyHolderKind | 'none';

export const CUSTODY_EVENT_KINDS = [
  'created',
  'picked_up',
  'assigned',
  'given_back',
  'delivered',
  'handed_over_qr',
  'relayed',
  'override',
  'status_changed',
  'cancelled',
  'deleted',
  // issue 28: a failed attempt and a return leave the parcel with its carrier; 'returned' hands it to the sender
  'attempted',
  'return_started',
  'returned',
  'handed_over_pin',
  'left_with_neighbour',
  'collected',
  'lost',
  'dropped_off',
] as const;
export type CustodyEventKind = (typeof CUSTODY_EVENT_KINDS)[number];

/** How a change of hands was confirmed. */
export const CUSTODY_HOWS = [
  'sender', // the sender created or withdrew the parcel
  'runner', // the runner's own act: pickup, give-back, delivery within 15 m
  'receiver_qr', // the receiver confirmed the runner's QR link
  'sender_qr', // the sender confirmed a returned parcel's QR link (issue 28)
  'receiver_pin', // the receiver read out the leg's handover PIN to the carrier (issue 28)
  'sender_pin', // the sender did, for a parcel brought back
  'neighbour_name', // the neighbour typed their name on the carrier's phone (issue 28)
  'drop_point_pin', // the runner typed the code the drop point's staff read out
  'drop_point_staff', // the drop point's staff: its receiver refused it at the counter
  'deadline', // a rule of time: a parcel not collected at its drop point in time goes back
  'runner_qr', // the taking runner confirmed the carrier's QR link
  'runner_pin', // the taking runner typed the code the carrier read out (issue 28)
  'admin', // the back office (assignment, status change, override, deletion)
  'migration', // backfilled by migration 0015 from the parcel's dates
] as const;
export type CustodyHow = (typeof CUSTODY_HOWS)[number];

/**
 * The relay token: the issuer's account id, the custody seq it was issued at and the expiry
 * (base 36 each), then an HMAC-SHA256 in base64url. Opaque to clients.
 */
export const relayTokenField = z
  .string({ error: messages.relayLinkInvalid })
  .regex(/^[0-9a-z]{1,11}\.[0-9a-z]{1,11}\.[0-9a-z]{1,11}\.[A-Za-z0-9_-]{43}$/, { error: messages.relayLinkInvalid });

/**
 * POST /api/parcels/:id/relay-token → the link the carrier's QR code shows the next runner (shaped
 * like the receiver's), and the code the carrier may read out instead (issue 28): the next runner
 * types it with the parcel's id. Both die once the parcel changes hands.
 */
export const relayLinkSchema = handoverLinkSchema.extend({ pin: z.string() });
export type RelayLink = z.infer<typeof relayLinkSchema>;

/** GET /api/relay/:id?token= */
export const relayQuerySchema = z.object({ token: relayTokenField });

/**
 * POST /api/parcels/:id/relay — the taking runner confirms ('Átveszem') with the link's token, or
 * with the code the carrier read out; optionally where they stand.
 */
export const relayBodySchema = z
  .object({
    token: relayTokenField.optional(),
    pin: handoverPinField.optional(),
    place: coordinatesSchema.optional(),
  })
  .refine((body) => (body.token === undefined) !== (body.pin === undefined), {
    error: messages.relayLinkInvalid,
    path: ['token'],
  });
export type RelayBody = z.infer<typeof relayBodySchema>;

/** What the taking runner sees before 'Átveszem', and the answer after it. */
export const relaySummarySchema = handoverSummarySchema.extend({
  /** Runners carry it on, so they see where it comes from and goes (the receiver does not). */
  senderAddress: z.string(),
  receiverAddress: z.string(),
  custodySeq: z.number().int(),
});
export type RelaySummary = z.infer<typeof relaySummarySchema>;

/** POST /api/parcels/:id/custody-override — the superadmin names the runner who holds it now. */
export const custodyOverrideBodySchema = z.object({
  runner: userNameField,
  reason: z
    .string({ error: messages.custodyOverrideReasonRequired })
    .trim()
    .min(1, { error: messages.custodyOverrideReasonRequired })
    .max(500, { error: messages.custodyOverrideReasonRequired }),
});
export type CustodyOverrideBody = z.infer<typeof custodyOverrideBodySchema>;

/** One custody event as the API shows it (GET /api/parcels/:id/custody). */
export const custodyEventSchema = z.object({
  seq: z.number().int(),
  kind: z.enum(CUSTODY_EVENT_KINDS),
  from: z.object({ kind: z.enum([...CUSTODY_HOLDER_KINDS, 'none']), userName: z.string().nullable() }),
  to: z.object({ kind: z.enum([...CUSTODY_HOLDER_KINDS, 'none']), userName: z.string().nullable() }),
  place: coordinatesSchema.nullable(),
  at: z.string(),
  how: z.enum(CUSTODY_HOWS),
  reason: z.string().nullable(),
  hash: z.string(),
});
export type CustodyEvent = z.infer<typeof custodyEventSchema>;
export const custodyChainSchema = z.object({
  events: z.array(custodyEventSchema),
  /** null: the chain verifies; else the seq of the first bad row. */
  firstBadSeq: z.number().int().nullable(),
});
export type CustodyChain = z.infer<typeof custodyChainSchema>;

/** Hungary's bounding box: a relay meeting point must lie inside it. */
export const HUNGARY_BOUNDS = { south: 45.7, north: 48.6, west: 16.1, east: 22.9 } as const;
export const insideHungary = ({ lat, lng }: { lat: number; lng: number }) =>
  lat >= HUNGARY_BOUNDS.south &&
  lat <= HUNGARY_BOUNDS.north &&
  lng >= HUNGARY_BOUNDS.west &&
  lng <= HUNGARY_BOUNDS.east;
/** A relay offer's time window: at most this long. */
export const RELAY_OFFER_MAX_HOURS = 12;
export const RELAY_OFFER_LABEL_MAX = 120;
/** A hand-over this close to an offer's meeting point happened there: the tracking page names it by the offer's label. */
export const RELAY_MEETING_RADIUS_M = 300;

const offerTime = z.iso.datetime({ offset: true, error: messages.relayOfferTimeInvalid });

/**
 * POST /api/parcels/:id/relay-offer ('Továbbadnám'): where (a point in Hungary, with an optional
 * label such as 'Nyugati pu.') and when (from–until, not over, at most RELAY_OFFER_MAX_HOURS).
 */
export const relayOfferBodySchema = z
  .object({
    place: coordinatesSchema,
    placeLabel: z
      .string()
      .trim()
      .max(RELAY_OFFER_LABEL_MAX, { error: messages.relayOfferLabelTooLong(RELAY_OFFER_LABEL_MAX) })
      .optional(),
    from: offerTime,
    until: offerTime,
  })
  .superRefine((body, context) => {
    if (!insideHungary(body.place)) {
      context.addIssue({ code: 'custom', path: ['place'], message: messages.relayOfferPlaceOutsideHungary });
    }
    const from = Date.parse(body.from);
    const until = Date.parse(body.until);
    if (until <= Date.now()) {
      context.addIssue({ code: 'custom', path: ['until'], message: messages.relayOfferWindowInPast });
    } else if (until <= from) {
      context.addIssue({ code: 'custom', path: ['until'], message: messages.relayOfferWindowOrder });
    } else if (until - from > RELAY_OFFER_MAX_HOURS * 3_600_000) {
      context.addIssue({
        code: 'custom',
        path: ['until'],
        message: messages.relayOfferWindowTooLong(RELAY_OFFER_MAX_HOURS),
      });
    }
  })
  .transform((body) => ({
    ...body,
    from: new Date(body.from).toISOString(),
    until: new Date(body.until).toISOString(),
  }));
export type RelayOfferBody = z.infer<typeof relayOfferBodySchema>;

/** An open relay offer as runners see it (their waiting list and map: 'Továbbadás'). */
export const relayOfferSchema = z.object({
  id: z.number().int(),
  parcelId: z.string(),
  category: z.string(),
  weightGrams: z.number().int(),
  /** The offering runner (the holder). */
  runner: z.string(),
  place: coordinatesSchema,
  placeLabel: z.string().nullable(),
  from: z.string(),
  until: z.string(),
  /** The parcel's destination, so a runner sees whether taking it gets it closer. */
  destination: coordinatesSchema,
  /** The runner who reserved it (until `until`), or null. */
  takenBy: z.string().nullable(),
});
export type RelayOffer = z.infer<typeof relayOfferSchema>;
export const relayOfferListSchema = z.object({ items: z.array(relayOfferSchema) });
export type RelayOfferList = z.infer<typeof relayOfferListSchema>;
