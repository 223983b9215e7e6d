import { z } from 'zod';

/**
 * Every refusal the API can answer, as a stable machine code, with its HTTP status. Clients and
 * tests branch on the code, never on the status or the Hungarian message; the message comes from
 * the catalogue (messages.ts) and may change wording without breaking anyone.
 */
export const ERROR_STATUS = {
  // 400: the request itself is wrong
  invalid_body: 400, // a body, query or path failed its schema (`fields` names each)
  invalid_encoding: 400, // a body that is not UTF-8
  invalid_query_text: 400, // a query string with a control character or bytes that are not UTF-8 (issue 32)
  invalid_cursor: 400, // a paging cursor this list did not hand out
  invalid_topics: 400, // live-update topics that do not exist
  position_required: 400, // a runner's delivery without lat, lng and accuracy
  sender_required: 400, // the superadmin created a parcel without naming the sender
  sender_not_self: 400, // a user tried to send in someone else's name
  sender_not_found: 400, // the named sender has no account
  sender_not_user: 400, // the named sender is a runner or an admin
  assignee_not_runner: 400, // assignment to a name that is no runner
  near_parcel_not_found: 400, // runners near a parcel that does not exist
  user_name_read_only: 400,
  email_read_only: 400, // a runner's email (SPEC §2.7)
  idempotency_key_invalid: 400, // an Idempotency-Key header that is empty, too long or not visible ASCII

  // 401: who are you?
  sign_in_required: 401,
  wrong_credentials: 401,
  metrics_unauthorized: 401,

  // 403: you may not
  forbidden: 403, // the role or the account may not do this
  cross_origin: 403, // a browser sent a state-changing request from another site (CSRF)
  not_your_parcel: 403, // another runner carries it
  receiver_link_invalid: 403, // a receiver link not signed for this parcel and its receiver address (issue 29)
  handover_link_invalid: 403, // a QR handover link forged, expired or for another parcel
  relay_link_invalid: 403, // a runner → runner link forged or for another parcel (issue 14)
  relay_own_parcel: 403, // the carrier opened their own relay link
  relay_link_expired: 403, // a genuine relay link past its expiry
  runner_not_approved: 403, // a runner the back office has not approved yet takes parcels on (issue 15)
  runner_suspended: 403, // a suspended runner takes parcels on
  report_not_party: 403, // 'Nem érkezett meg' from someone neither the sender nor the receiver
  email_not_verified: 403, // REQUIRE_EMAIL_VERIFICATION: sending or carrying before the account's address is verified (issue 29)

  // 404: no such thing (or not one the caller may know of)
  not_found: 404, // an unknown URL
  parcel_not_found: 404,
  account_not_found: 404,
  runner_not_found: 404,
  push_device_not_found: 404, // a device of another account, or one already removed
  trip_not_found: 404, // a saved trip of another runner, or one already deleted
  relay_offer_not_found: 404, // no such relay offer, or not one open for this runner
  report_not_found: 404, // no such 'Nem érkezett meg' report
  attempt_not_found: 404, // no failed delivery attempt under this number (or no photo kept of it)
  incident_not_found: 404, // no such incident (or no photo of it under this number)
  drop_point_not_found: 404, // no such drop point (or not an active one)
  rating_comment_not_found: 404, // no rating of a runner with a comment under this id (ADR 0025)

  // 409: the thing is not in a state that allows it
  parcel_taken: 409, // a pickup or assignment lost to another
  parcel_already_delivered: 409,
  parcel_not_in_transit: 409,
  parcel_not_waiting: 409, // the sender's cancel after a pickup
  parcel_changed_meanwhile: 409, // an edit of a version that is no longer current
  parcel_needs_runner: 409, // a back-office status change that needs a runner on the parcel
  handover_link_used: 409, // a QR handover link opened again after the receiver confirmed it
  handover_link_stale: 409, // a valid link, but the parcel changed while the receiver confirmed (a race)
  relay_link_used: 409, // a relay link already used, or its issuer no longer holds the parcel
  relay_offer_unavailable: 409, // a relay offer reserved by another runner, past its window or no longer valid
  photo_required: 409, // a delivery by position without the photo its sender asked for (issue 15)
  rating_not_delivered: 409, // a rating before the parcel is delivered
  rating_locked: 409, // a rating edited after its 24 h
  rating_comment_hidden: 409, // the back office hides a comment already hidden
  rating_comment_shown: 409, // the back office shows again a comment that is not hidden
  relay_offer_reserved: 409, // a hand-over link confirmed by another runner than the one who reserved the offer
  custody_unchanged: 409, // an override naming the runner who already holds the parcel
  runner_carries_parcels: 409, // a runner cannot be deleted while carrying parcels
  user_name_taken: 409,
  email_taken: 409,
  email_already_verified: 409, // a new verification link asked for with no address left to verify (issue 29)
  idempotency_key_in_flight: 409, // the first request with this Idempotency-Key has not finished yet
  saved_trips_limit: 409, // a runner already has SAVED_TRIPS_MAX saved trips
  report_not_delivered: 409, // 'Nem érkezett meg' on a parcel not delivered
  report_exists: 409, // the reporter already has an open report on the parcel
  report_resolved: 409, // a report resolved already
  already_returning: 409, // a return started on a parcel already on its way back (issue 28)
  redelivery_not_now: 409, // a new time asked before any failed attempt, or once the parcel turns back
  status_own_flow: 409, // a back-office status change into or out of a state only its own flow reaches
  incident_open: 409, // a parcel already has an open incident
  account_has_parcels_in_progress: 409, // an account erased while parcels it sent or carries are on their way (issue 29)
  incident_resolved: 409, // an incident decided already
  incident_decision_impossible: 409, // a return or a write-off the parcel's state does not allow
  incident_photos_full: 409, // an incident has INCIDENT_PHOTOS_MAX photos already
  drop_point_closed: 409, // a collection outside the drop point's opening hours
  drop_point_needs_code: 409, // a delivery by position of a parcel bound for a drop point: its staff's code hands it over

  // 422: understood, but a rule refuses it
  too_far: 422, // delivery farther than 15 m from the door (SPEC §4)
  destination_imprecise: 422, // the door's place is unknown: only the QR handover delivers
  geocode_failed: 422,
  address_unparsable: 422, // no settlement, street or postal code could be read (issue 25)
  postcode_unknown: 422, // a postal code Magyar Posta does not have
  postcode_mismatch: 422, // a postal code of another settlement
  settlement_unknown: 422, // no settlement of that name (a spelling may be suggested)
  settlement_missing: 422, // a street in several settlements, and none named
  settlement_unplaced: 422, // a real settlement whose position no data gives: the sender places the pin
  outside_hungary: 422, // a pin outside Hungary
  position_too_imprecise: 422, // delivery by position with an accuracy worse than DELIVERY_MAX_ACCURACY_M
  reason_required: 422, // a status change or a deletion that needs the back office's reason
  idempotency_key_reused: 422, // an Idempotency-Key already used for another request (or another body)
  report_too_late: 422, // 'Nem érkezett meg' more than 7 days after delivery
  handover_pin_wrong: 422, // a handover PIN that is not the leg's (tries left in the message)
  reset_token_invalid: 422, // a password reset link unknown, used or past its hour (issue 29)
  verify_token_invalid: 422, // an email verification link unknown, used, expired or for an address no longer asked (issue 29)
  mail_link_invalid: 422, // a one-click stop link not signed by this server (issue 29)
  wrong_password: 422, // the account's own password, asked again before erasing it, is not it (issue 29)

  // 413, 415: a body this server does not take
  body_too_large: 413,
  unsupported_media_type: 415, // not JSON (or, where a route takes files, not an image)

  // 429: too often
  rate_limited: 429,
  too_many_login_attempts: 429,
  too_many_streams: 429,
  too_many_reset_requests: 429, // password reset links asked too often for one address (issue 29)
  too_many_verification_requests: 429, // verification links asked too often for one account (issue 29)
  handover_pin_locked: 429, // too many tries of a leg's handover PIN in its window

  // 5xx
  internal: 500,
  unavailable: 503, // the database cannot be reached right now: try again shortly
  not_ready: 503, // this instance takes no traffic (database down, draining)
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
export const errorCodeSchema = z.enum(ERROR_CODES);

/**
 * Codes any route may answer besides its own: a body or query string that fails its schema or is
 * not text, too many requests, a cross-site write, the database away, a bug.
 */
export const COMMON_ERROR_CODES = [
  'invalid_body',
  'body_too_large',
  'unsupported_media_type',
  'invalid_encoding',
  'invalid_query_text',
  'rate_limited',
  'cross_origin',
  'unavailable',
  'internal',
] as const satisfies readonly ErrorCode[];

/** The one error body every route answers with. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
