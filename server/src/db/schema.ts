import type { AttemptReason } from '@csomag/domain/attempts';
import type { DropPointKind } from '@csomag/domain/drop-points';
import type { IncidentDecision, IncidentKind } from '@csomag/domain/incidents';
import type { Language } from '@csomag/domain/language';
import type { ParcelEventKind, ParcelStatus, PlacePrecision } from '@csomag/domain/parcel';
import type { PlaceKind } from '@csomag/domain/places';
import type { CustodyEventKind, CustodyHow, CustodyPartyKind } from '@csomag/domain/relay';
import type { Role, RunnerStatus } from '@csomag/domain/roles';
import type { TravelMode } from '@csomag/domain/trips';
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Times are ISO 8601 UTC text on both stores, so one query reads the same on each. */
type IsoTime = string;

/** 0007's precision: 'street' meant the door (migration 0021 keeps writing it for the release before). */
export type LegacyPrecision = 'street' | 'settlement' | 'manual';

export interface AccountsTable {
  id: Generated<number>;
  user_name: string;
  email: string;
  name: string;
  phone: string;
  address: string;
  address_key: string;
  password_hash: string;
  role: Role;
  runner_status: RunnerStatus | null;
  last_lat: number | null;
  last_lng: number | null;
  last_accuracy: number | null;
  located_at: IsoTime | null;
  created_at: IsoTime;
  updated_at: IsoTime;
  /** Runners (issue 15): when the back office approved them (RUNNER_APPROVAL=auto: at registration). */
  approved_at: IsoTime | null;
  /** Runners: suspended by the back office, and why; null while not suspended. */
  suspended_at: IsoTime | null;
  suspended_reason: string | null;
  /** When the address was shown to be theirs (issue 29): the link in the mail sent to it. */
  email_verified_at: IsoTime | null;
  /** A new address waiting for its link; `email` stays in use until then. */
  pending_email: string | null;
  /** The language they chose (issue 30, migration 0030); null: their browser's. */
  language: Language | null;
}

export interface SessionsTable {
  token_hash: string;
  account_id: number;
  expires_at: IsoTime;
  created_at: IsoTime;
}

export interface ParcelsTable {
  id: string;
  sender_id: number;
  runner_id: number | null;
  category: string;
  weight_grams: number;
  status: ParcelStatus;
  sender_address: string;
  receiver_address: string;
  receiver_key: string;
  /** addressKey(sender_address): the waiting list's settlement filter. */
  sender_key: string;
  sender_lat: number;
  sender_lng: number;
  receiver_lat: number;
  receiver_lng: number;
  created_at: IsoTime;
  picked_up_at: IsoTime | null;
  delivered_at: IsoTime | null;
  version: Generated<number>;
  /** NULL on parcels from before precision was recorded. */
  sender_precision: LegacyPrecision | null;
  receiver_precision: LegacyPrecision | null;
  /** Issue 25's precision (with 'door'); NULL where a row predates it: read with placePrecision(). */
  sender_place_precision: PlacePrecision | null;
  receiver_place_precision: PlacePrecision | null;
  recipient_name: string | null;
  recipient_phone: string | null;
  /** Who holds the parcel now (issue 14, docs/decisions/0022): written only with a custody event. */
  holder_kind: Generated<CustodyPartyKind>;
  /** The holder's account (sender or runner); null for the receiver, or a deleted account. */
  holder_id: number | null;
  /** The seq of the parcel's last custody event: the compare-and-swap's expected value. */
  custody_seq: Generated<number>;
  /** Runner → runner changes of hands (relays, overrides): > 0 is a multi-leg ('többszakaszos') parcel. */
  runner_handovers: Generated<number>;
  /** 1: the sender asked for a photo at delivery ('Fotó szükséges a leadáskor', issue 15). */
  photo_required: Generated<number>;
  /** Failed delivery attempts at the current destination (issue 28): 0 again when a return starts. */
  attempts: Generated<number>;
  /** 1: on its way back to its sender, whose address is now the destination. */
  returning: Generated<number>;
  /** The window asked for the next attempt (ISO); null: none asked since the last attempt. */
  redelivery_from: IsoTime | null;
  redelivery_until: IsoTime | null;
  /** The neighbour it was left with (issue 28): name and flat or door. */
  neighbour_name: string | null;
  neighbour_door: string | null;
  /** The neighbour the receiver (or sender) asked it be left with after a failed attempt. */
  neighbour_wish_name: string | null;
  neighbour_wish_door: string | null;
  /** The drop point it goes to or waits at (issue 28); null: the door. */
  drop_point_id: number | null;
  /** Since when it waits at its drop point: its collection deadline runs from then. */
  at_drop_point_since: IsoTime | null;
  /** The receiver's address the sender typed (issue 29): told of the parcel's way by mail. */
  receiver_email: string | null;
  /** When the receiver asked for no more mail about it (the one-click stop). */
  receiver_mail_stopped_at: IsoTime | null;
  /** When the receiver was told a runner is near: once per parcel. */
  receiver_near_mailed_at: IsoTime | null;
}

/** A drop point ('Átvételi pont', issue 28). */
export interface DropPointsTable {
  id: Generated<number>;
  name: string;
  kind: DropPointKind;
  address: string;
  lat: number;
  lng: number;
  opening_hours: string;
  active: Generated<number>;
  created_at: IsoTime;
}

export interface DropPointStaffTable {
  drop_point_id: number;
  account_id: number;
}

/** An incident ('Probléma bejelentése', issue 28): reported by the runner holding the parcel, decided by the back office. */
export interface IncidentsTable {
  id: Generated<number>;
  parcel_id: string;
  kind: IncidentKind;
  description: string;
  reporter_id: number | null;
  created_at: IsoTime;
  decision: IncidentDecision | null;
  note: string | null;
  resolved_by: number | null;
  resolved_at: IsoTime | null;
}

export interface IncidentPhotosTable {
  id: Generated<number>;
  incident_id: number;
  number: number;
  image: Buffer | null;
  mime: string;
  sha256: string;
  width: number;
  height: number;
  created_at: IsoTime;
}

/** A failed delivery attempt (issue 28), with the carrier's optional photo of the door. */
export interface DeliveryAttemptsTable {
  id: Generated<number>;
  parcel_id: string;
  number: number;
  runner_id: number | null;
  reason: AttemptReason;
  note: string | null;
  lat: number;
  lng: number;
  accuracy: number;
  at: IsoTime;
  occurred_at: IsoTime | null;
  started_return: number;
  photo: Buffer | null;
  photo_mime: string | null;
  photo_sha256: string | null;
  photo_width: number | null;
  photo_height: number | null;
  photo_at: IsoTime | null;
  photo_removed_at: IsoTime | null;
}

/** A delivery's proof (issue 15): a photo or the receiver's signature, never served at a public URL. */
export interface ProofsTable {
  id: Generated<number>;
  parcel_id: string;
  kind: 'photo' | 'signature';
  /** The re-encoded image (no metadata); null once removed after PROOF_RETENTION_DAYS. */
  image: Buffer | null;
  mime: string;
  /** sha256 (hex) of `image` as stored: stays after the image is removed. */
  sha256: string;
  width: number;
  height: number;
  /** A signature's strokes as signature_pad gave them (JSON); null for a photo. */
  strokes: string | null;
  created_by: number | null;
  created_at: IsoTime;
  removed_at: IsoTime | null;
}

/** One rating per parcel and rater role (issue 15): the sender and the receiver rate the runner, the runner the sender. */
export interface RatingsTable {
  id: Generated<number>;
  parcel_id: string;
  rater_id: number;
  rater_role: 'sender' | 'receiver' | 'runner';
  /** Whom it rates: the parcel's runner, or its sender when the runner rates. */
  ratee_id: number;
  stars: number;
  comment: string | null;
  created_at: IsoTime;
  updated_at: IsoTime;
  /** The back office's hide of the comment in force (migration 0020); all three null while it is shown. */
  hidden_at: IsoTime | null;
  /** Who hid it; null when shown, or when that account is gone since. */
  hidden_by: number | null;
  hidden_reason: string | null;
}

/** Every hide and showing again of a rating's comment: who, when and (a hide) why (ADR 0025). */
export interface RatingModerationsTable {
  id: Generated<number>;
  rating_id: number;
  action: 'hide' | 'show';
  reason: string | null;
  /** Null when that account is gone since. */
  by_id: number | null;
  at: IsoTime;
}

/** 'Nem érkezett meg' (issue 15): a delivered parcel reported as not received, and the back office's decision. */
export interface NotReceivedReportsTable {
  id: Generated<number>;
  parcel_id: string;
  reporter_id: number;
  description: string;
  created_at: IsoTime;
  resolved_at: IsoTime | null;
  resolved_by: number | null;
  resolution: string | null;
}

/** One change of hands, chained by hash (docs/decisions/0022); no foreign key, like parcel_events. */
export interface CustodyEventsTable {
  id: Generated<number>;
  parcel_id: string;
  /** 0 for `created`, then +1 per change, unique per parcel. */
  seq: number;
  kind: CustodyEventKind;
  from_kind: CustodyPartyKind;
  from_id: number | null;
  to_kind: CustodyPartyKind;
  to_id: number | null;
  lat: number | null;
  lng: number | null;
  at: IsoTime;
  /** The account that confirmed the change (the taker of a relay, the receiver's runner, the admin). */
  confirmed_by: number | null;
  how: CustodyHow;
  /** Free text of an override or a give-back; part of the hash. */
  reason: string | null;
  prev_hash: string;
  hash: string;
}

/** A carrier's offer to hand the parcel on ('Továbbadnám', docs/decisions/0022). */
export interface RelayOffersTable {
  id: Generated<number>;
  parcel_id: string;
  runner_id: number;
  /** The parcel's custody_seq when offered: the offer lapses once the parcel changes hands. */
  custody_seq: number;
  lat: number;
  lng: number;
  place_label: string | null;
  window_from: IsoTime;
  window_until: IsoTime;
  taken_by: number | null;
  taken_at: IsoTime | null;
  closed_at: IsoTime | null;
  created_at: IsoTime;
}

export interface ParcelEventsTable {
  id: Generated<number>;
  parcel_id: string;
  at: IsoTime;
  kind: ParcelEventKind;
  actor_id: number | null;
  data: string | null;
  /** When the person says it happened (sent later from the offline outbox); null: at `at` (ADR 0017). */
  occurred_at: IsoTime | null;
}

export interface GeocodeCacheTable {
  query_key: string;
  lat: number;
  lng: number;
  label: string;
  source: string;
  /** NULL on entries from before it was recorded: offline ones are settlements, the rest streets. */
  precision: LegacyPrecision | null;
  /** NULL on entries from before doors were told apart: those are asked again. */
  place_precision: PlacePrecision | null;
  created_at: IsoTime;
}

/** One OpenStreetMap import (places:import); the one 'active' is what look-ups read. */
export interface PlaceImportsTable {
  id: Generated<number>;
  file_name: string;
  status: 'loading' | 'active' | 'replaced';
  /** JSON: records per kind. */
  counts: string | null;
  started_at: IsoTime;
  finished_at: IsoTime | null;
}

/** A place of an import: an address (door), a street, a settlement, a station or a landmark. */
export interface PlacesTable {
  id: Generated<number>;
  import_id: number;
  kind: PlaceKind;
  lat: number;
  lng: number;
  cell: number;
  name: string | null;
  name_key: string | null;
  settlement_key: string | null;
  district: number | null;
  street: string | null;
  street_key: string | null;
  house_number: string | null;
  postal_code: string | null;
  place_type: string | null;
}

/** One timetable import (gtfs:import); the one 'active' is what the router loads (ADR 0029). */
export interface TimetablesTable {
  id: Generated<number>;
  status: 'loading' | 'active' | 'replaced';
  /** JSON: the feeds' summaries (modules/timetable/timetable.ts FeedSummary[]). */
  feeds: string;
  byte_length: number;
  started_at: IsoTime;
  finished_at: IsoTime | null;
}

/** A piece of an import's compiled timetable, in order. */
export interface TimetableChunksTable {
  timetable_id: number;
  seq: number;
  data: Uint8Array;
}

/** An abuse-limit counter in a fixed window (PostgreSQL only; db/rate-limits.ts). */
export interface RateLimitsTable {
  key: string;
  count: number;
  /** Epoch milliseconds at which the window ends. */
  reset_at: number;
}

export interface Database {
  accounts: AccountsTable;
  sessions: SessionsTable;
  parcels: ParcelsTable;
  parcel_events: ParcelEventsTable;
  geocode_cache: GeocodeCacheTable;
  place_imports: PlaceImportsTable;
  places: PlacesTable;
  timetables: TimetablesTable;
  timetable_chunks: TimetableChunksTable;
  rate_limits: RateLimitsTable;
  change_log: ChangeLogTable;
  live_streams: LiveStreamsTable;
  idempotency_keys: IdempotencyKeysTable;
  push_subscriptions: PushSubscriptionsTable;
  push_muted_kinds: PushMutedKindsTable;
  push_claims: PushClaimsTable;
  saved_trips: SavedTripsTable;
  custody_events: CustodyEventsTable;
  relay_offers: RelayOffersTable;
  proofs: ProofsTable;
  ratings: RatingsTable;
  rating_moderations: RatingModerationsTable;
  not_received_reports: NotReceivedReportsTable;
  delivery_attempts: DeliveryAttemptsTable;
  incidents: IncidentsTable;
  incident_photos: IncidentPhotosTable;
  drop_points: DropPointsTable;
  drop_point_staff: DropPointStaffTable;
  mail_outbox: MailOutboxTable;
  mail_suppressions: MailSuppressionsTable;
  password_resets: PasswordResetsTable;
  email_verifications: EmailVerificationsTable;
  mail_muted_kinds: MailMutedKindsTable;
}

/** A message to send (issue 29, docs/decisions/0031): written with the change that caused it. */
export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  template: string;
  subject: string;
  text_body: string;
  html_body: string;
  unsubscribe_url: string | null;
  created_at: IsoTime;
  due_ms: number;
  attempts: Generated<number>;
  claimed_until_ms: number | null;
  sent_at: IsoTime | null;
  failed_at: IsoTime | null;
  last_error: string | null;
  file_name: string | null;
  /** The parcel a message is about; null for an account's own mail (0029). */
  parcel_id: string | null;
}

/** An address mail no longer goes to: it bounced for good. */
export interface MailSuppressionsTable {
  address: string;
  reason: string;
  at: IsoTime;
}

/** A password reset link, by the SHA-256 of its token: single use, valid for an hour. */
export interface PasswordResetsTable {
  token_hash: string;
  account_id: number;
  created_at: IsoTime;
  expires_at: IsoTime;
  used_at: IsoTime | null;
}

/** A link that shows an address is its account's (issue 29), by the SHA-256 of its token: single use. */
export interface EmailVerificationsTable {
  token_hash: string;
  account_id: number;
  /** The address it verifies: the account's, or the new one it asked to change to. */
  email: string;
  created_at: IsoTime;
  expires_at: IsoTime;
  used_at: IsoTime | null;
}

/** A kind of status mail an account switched off (SenderMailKind); absent = on. */
export interface MailMutedKindsTable {
  account_id: number;
  kind: string;
}

/** A runner's saved trip (modules/trips, docs/decisions/0021): only its owner reads it. */
export interface SavedTripsTable {
  id: Generated<number>;
  account_id: number;
  label: string;
  from_lat: number;
  from_lng: number;
  to_lat: number;
  to_lng: number;
  /** TravelMode. */
  mode: TravelMode;
  max_detour_minutes: number;
  /** ISO weekdays, comma-separated: '1,2,3,4,5'. */
  weekdays: string;
  /** 'HH:MM', Budapest time. */
  time: string;
  /** 0 or 1. */
  paused: number;
  created_at: IsoTime;
}

/** A device that gets an account's push notifications (modules/push, docs/decisions/0018). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  account_id: number;
  /** The push service's URL for this device: unique, a device belongs to the account that subscribed last. */
  endpoint: string;
  p256dh: string;
  auth: string;
  label: string | null;
  created_at: IsoTime;
}

/** A kind of notification an account switched off (PushKind); absent = on. */
export interface PushMutedKindsTable {
  account_id: number;
  kind: string;
}

/** Which instance sends a change's notifications: the one whose insert got the change id first. */
export interface PushClaimsTable {
  change_id: number;
  claimed_ms: number;
}

/** A signed-in account's Idempotency-Key and the answer it stands for (plugins/idempotency.ts, ADR 0017). */
export interface IdempotencyKeysTable {
  account_id: number;
  key: string;
  /** sha256 of the method, route, params, query and canonical JSON body it was first used with. */
  fingerprint: string;
  /** Epoch ms when first used: expiry and pruning. */
  created_ms: number;
  /** The stored answer; null while the first request is under way. */
  status: number | null;
  body: string | null;
}

export interface ChangeLogTable {
  /** The event id browsers resume from: increasing in commit order. */
  id: Generated<number>;
  /** Epoch ms at commit (about): delivery lag and pruning. */
  created_ms: number;
  request_id: string | null;
  /** The ParcelChange as JSON. */
  change: string;
}

export interface LiveStreamsTable {
  id: string;
  instance_id: string;
  /** account:<id> or ip:<address>: whose stream it is. */
  client_key: string;
  /** Epoch ms; the owning instance renews it while the stream is open. */
  expires_ms: number;
}

export type AccountRow = Selectable<AccountsTable>;
export type NewAccountRow = Insertable<AccountsTable>;
export type AccountUpdate = Updateable<AccountsTable>;
export type ParcelRow = Selectable<ParcelsTable>;
