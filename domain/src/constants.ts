/** Business constants from SPEC §9 and DESIGN — the one source for server and web. */

/** Delivery without QR is allowed when distance − accuracy is under this many metres. */
export const DELIVERY_RADIUS_M = 15;
/**
 * The 15 m promise holds only for a position known to this many metres (issue 25): a phone that
 * reports ±190 m could stand anywhere in the street. Good phone GPS outdoors gives 3–15 m.
 */
export const DELIVERY_MAX_ACCURACY_M = 30;

export const MIN_EMAIL_LENGTH = 3;
export const MIN_PASSWORD_LENGTH = 6;
export const USER_NAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;

export const TOAST_AUTO_CLOSE_MS = 3500;
export const DESKTOP_MIN_WIDTH_PX = 1024;
export const DASHBOARD_PREVIEW_LIMIT = 4;

export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 200;

export const TRACKING_MAP = { zoom: 11.5, height: '80vh' } as const;
/** Where a map looks before it knows better (no position yet, no pin yet): Budapest's centre. */
export const DEFAULT_MAP_CENTRE = { lat: 47.4979, lng: 19.0402 } as const;
export const RUNNER_MAP = { zoom: 10, height: '100vh' } as const;
export const ADMIN_MAP = { center: { lat: 47.51, lng: 19.04 }, zoom: 8, height: '100vh' } as const;

export const QR_CODE = { size: 128, level: 'L', marginModules: 4 } as const;
export const HANDOVER_TOKEN_TTL_MS = 15 * 60 * 1000;
/** Digits of a hand-over code (domain/handover-pin.ts): here, so the pages that only show one load no schema. */
export const HANDOVER_PIN_LENGTH = 6;

/** A runner's browser reports its position at most this often or after this much movement. */
export const LOCATION_REPORT_MIN_INTERVAL_MS = 10_000;
export const LOCATION_REPORT_MIN_DISTANCE_M = 25;

export const SESSION_COOKIE = 'csk_session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export const TIME_ZONE = 'Europe/Budapest';

/** Heaviest parcel accepted: community runners carry parcels by hand or on public transport. */
export const MAX_WEIGHT_GRAMS = 50_000;
/** Parcel creations per account per minute (DESIGN §4). */
export const PARCEL_CREATE_LIMIT_PER_MINUTE = 120;

/** A position reported as less precise than this (metres) is not a position. */
export const MAX_POSITION_ACCURACY_M = 100_000;

/** How long a state-changing request's Idempotency-Key and its stored answer are kept (docs/decisions/0017). */
export const IDEMPOTENCY_KEY_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The longest Idempotency-Key accepted (visible ASCII only). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** A runner's `occurredAt` may be this far ahead of the server's clock (phones drift). */
export const OCCURRED_AT_MAX_SKEW_MS = 2 * 60 * 1000;
/** …and at most this far back: an action queued offline longer than this is refused. */
export const OCCURRED_AT_MAX_AGE_MS = 72 * 60 * 60 * 1000;
/** Points in one location batch (positions recorded offline, sent together). */
export const LOCATION_BATCH_MAX_POINTS = 500;
