import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RETURN_AFTER_ATTEMPTS_DEFAULT } from '@csomag/domain/attempts';
import { messages } from '@csomag/domain/messages';
import { OPERATOR_PAGES, type OperatorPage, operatorPageFiles } from '@csomag/domain/operator-pages';
import webpush from 'web-push';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL instead of the embedded SQLite file when set. */
  databaseUrl: string | undefined;
  /** Origin put into QR links; the request's origin when unset. */
  publicUrl: string | undefined;
  sessionSecret: string;
  geocoder: 'offline' | 'nominatim' | 'photon';
  geocoderUrl: string | undefined;
  tileUrl: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  demoData: boolean;
  logLevel: string;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. Off by default, so nobody can spoof it. */
  trustProxy: boolean;
  /** Built web app to serve; absent in API tests. */
  webDist: string | undefined;
  /** Bearer token that opens /api/metrics; without it (and without metricsPort) metrics are not served. */
  metricsToken: string | undefined;
  /** Serve metrics on their own port (GET /metrics, no token) instead of under /api. */
  metricsPort: number | undefined;
  metricsHost: string;
  /** How long a draining instance waits for in-flight requests before it exits anyway (SIGTERM). */
  shutdownTimeoutMs: number;
  /** A client must have sent its headers within this time, and its whole request within requestTimeoutMs. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Web Push: the VAPID key pair and contact (the same on every instance; docs/decisions/0018). */
  vapid: VapidDetails;
  /** Tests only: push endpoints on http://127.0.0.1 or localhost are accepted (a fake push service). */
  pushAllowLoopback: boolean;
  /** `auto`: a new runner may carry parcels at once; `manual`: only once the back office approves them (issue 15). */
  runnerApproval: 'auto' | 'manual';
  /** Proof photos and signatures are removed this many days after delivery; their hash and the fact stay. */
  proofRetentionDays: number;
  /** After this many failed delivery attempts a parcel goes back to its sender (issue 28). */
  returnAfterAttempts: number;
  /** PostgreSQL: how often an instance adds its HTTP abuse-limit hits to the shared windows (issue 31). */
  abuseLimitBatchMs: number;
  /** A parcel not collected at its drop point within this many days goes back to its sender (issue 28). */
  dropPointHoldDays: number;
  /** An operator's MOTIS 2 journey planner for public-transport times (ADR 0029); the imported timetable otherwise. */
  travelTimeUrl: string | undefined;
  travelTimeTimeoutMs: number;
  /** How often an instance looks for a newer timetable import (gtfs:import on any machine). */
  timetableCheckMs: number;
  /** The operator's SMTP server (smtp:// or smtps://, credentials in it); without it mail is written to `mailDir`. */
  smtpUrl: string | undefined;
  /** The sender of every message. */
  mailFrom: string;
  /**
   * Where the links in mail point: PUBLIC_URL; without it (mail written to files only) this
   * server's own address. Never a request's Host header, which anyone can set: a reset link
   * pointing elsewhere would hand its token over (SMTP_URL therefore needs PUBLIC_URL).
   */
  mailOrigin: string;
  /** REQUIRE_EMAIL_VERIFICATION=1: an account sends and carries parcels only once its address is verified (issue 29). */
  requireEmailVerification: boolean;
  /** DATA_DIR/mail: where messages are written as .eml files when there is no SMTP server. */
  mailDir: string;
  /** The operator's Markdown files: DATA_DIR/pages/… unless PRIVACY_PAGE, CONTACT_PAGE, IMPRINT_PAGE name others. */
  operatorPages: Record<OperatorPage, string>;
}

export interface VapidDetails {
  publicKey: string;
  privateKey: string;
  /** A mailto: or https: URL the push services may contact. */
  subject: string;
}

/** SMTP_URL: smtp:// or smtps:// (nodemailer's form, credentials included); refused otherwise, never echoed. */
function smtpUrlOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error('SMTP_URL must be an smtp:// or smtps:// URL');
  return value;
}

/** Where the generated session secret is kept in DATA_DIR (backups carry it along). */
export const SESSION_SECRET_FILE = 'session-secret';

/** Where the generated VAPID key pair is kept in DATA_DIR, beside the session secret. */
export const VAPID_KEYS_FILE = 'vapid-keys.json';

const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** The session secret is generated once and kept beside the data so restarts keep links valid. */
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, SESSION_SECRET_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * The VAPID keys from the environment, or generated once and kept beside the data: a browser's
 * subscription is bound to the public key, so a new key would silence every device.
 */
function loadOrCreateVapid(env: NodeJS.ProcessEnv, dataDir: string, publicUrl: string | undefined): VapidDetails {
  const subject =
    env.VAPID_SUBJECT ||
    (publicUrl?.startsWith('https://') ? publicUrl : `mailto:${env.ADMIN_EMAIL || 'push@csomagkuldo.invalid'}`);
  if (!/^(mailto:|https:\/\/)/.test(subject)) throw new Error('VAPID_SUBJECT must be a mailto: or https:// URL');
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
    throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together');
  }
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    const keys = { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY };
    if (
      Buffer.from(keys.publicKey, 'base64url').length !== 65 ||
      Buffer.from(keys.privateKey, 'base64url').length !== 32
    )
      throw new Error(
        'VAPID_PUBLIC_KEY must be 65 bytes and VAPID_PRIVATE_KEY 32 bytes, base64url (web-push generate-vapid-keys)',
      );
    return { ...keys, subject };
  }
  const file = join(dataDir, VAPID_KEYS_FILE);
  if (existsSync(file)) {
    const { publicKey, privateKey } = JSON.parse(readFileSync(file, 'utf8')) as Omit<VapidDetails, 'subject'>;
    return { publicKey, privateKey, subject };
  }
  const { publicKey, privateKey } = webpush.generateVAPIDKeys();
  writeFileSync(file, `${JSON.stringify({ publicKey, privateKey })}\n`, { mode: 0o600 });
  return { publicKey, privateKey, subject };
}

function seconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback * 1000;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0)
    throw new Error(`${name} must be a positive number of seconds: ${value}`);
  return Math.round(parsed * 1000);
}

function milliseconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0)
    throw new Error(`${name} must be a positive number of milliseconds: ${value}`);
  return parsed;
}

/** An http(s) URL without a trailing slash, or undefined when unset. */
function httpUrl(name: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http or https URL`);
  return value.replace(/\/+$/, '');
}

function portOf(name: string, value: string | undefined): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} is not a port: ${value}`);
  return port;
}

function wholeDays(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1)
    throw new Error(`${name} must be a whole number of days, at least 1: ${value}`);
  return days;
}

function wholeNumber(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new Error(`${name} must be a whole number from 1 to ${max}: ${value}`);
  return n;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

/** Reads and checks the environment once (DESIGN §7). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = resolve(env.DATA_DIR || './data');
  mkdirSync(dataDir, { recursive: true });
  const port = portOf('PORT', env.PORT || '3000');
  // A short token could be guessed by anyone who can reach the port; 16 characters is the floor.
  if (env.METRICS_TOKEN && env.METRICS_TOKEN.length < 16) throw new Error('METRICS_TOKEN needs at least 16 characters');
  const headersTimeoutMs = seconds('HEADERS_TIMEOUT', env.HEADERS_TIMEOUT, 10);
  const requestTimeoutMs = seconds('REQUEST_TIMEOUT', env.REQUEST_TIMEOUT, 30);
  // Node checks headersTimeout against requestTimeout; the headers are part of the request.
  if (headersTimeoutMs > requestTimeoutMs) throw new Error('HEADERS_TIMEOUT cannot be longer than REQUEST_TIMEOUT');
  const geocoder = (env.GEOCODER || 'offline') as Config['geocoder'];
  if (geocoder !== 'offline' && geocoder !== 'nominatim' && geocoder !== 'photon') {
    throw new Error('GEOCODER must be offline, nominatim or photon');
  }
  if (geocoder !== 'offline' && !env.GEOCODER_URL) throw new Error(`GEOCODER=${geocoder} needs GEOCODER_URL`);
  if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
    throw new Error('ADMIN_EMAIL and ADMIN_PASSWORD go together');
  }
  const runnerApproval = (env.RUNNER_APPROVAL || 'auto') as Config['runnerApproval'];
  if (runnerApproval !== 'auto' && runnerApproval !== 'manual') {
    throw new Error(`RUNNER_APPROVAL must be auto or manual: ${env.RUNNER_APPROVAL}`);
  }
  const publicUrl = env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : undefined;
  const smtpUrl = smtpUrlOf(env.SMTP_URL);
  if (smtpUrl && !publicUrl) {
    throw new Error(
      "SMTP_URL needs PUBLIC_URL: the links in mail must point to the public address, not a request's Host",
    );
  }
  const host = env.HOST || '0.0.0.0';
  return {
    port,
    host,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl,
    sessionSecret: env.SESSION_SECRET || loadOrCreateSecret(dataDir),
    geocoder,
    geocoderUrl: env.GEOCODER_URL || undefined,
    tileUrl: env.TILE_URL || DEFAULT_TILE_URL,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    demoData: flag(env.DEMO_DATA, true),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: flag(env.TRUST_PROXY, false),
    webDist:
      env.WEB_DIST === '' ? undefined : resolve(env.WEB_DIST || new URL('../../web/dist', import.meta.url).pathname),
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: env.METRICS_PORT ? portOf('METRICS_PORT', env.METRICS_PORT) : undefined,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    shutdownTimeoutMs: seconds('SHUTDOWN_TIMEOUT', env.SHUTDOWN_TIMEOUT, 10),
    headersTimeoutMs,
    requestTimeoutMs,
    vapid: loadOrCreateVapid(env, dataDir, publicUrl),
    pushAllowLoopback: flag(env.PUSH_ALLOW_LOOPBACK, false),
    runnerApproval,
    proofRetentionDays: wholeDays('PROOF_RETENTION_DAYS', env.PROOF_RETENTION_DAYS, 30),
    returnAfterAttempts: wholeNumber(
      'RETURN_AFTER_ATTEMPTS',
      env.RETURN_AFTER_ATTEMPTS,
      RETURN_AFTER_ATTEMPTS_DEFAULT,
      10,
    ),
    dropPointHoldDays: wholeDays('DROP_POINT_HOLD_DAYS', env.DROP_POINT_HOLD_DAYS, 7),
    abuseLimitBatchMs: milliseconds('ABUSE_LIMIT_BATCH_MS', env.ABUSE_LIMIT_BATCH_MS, 1000),
    travelTimeUrl: httpUrl('TRAVEL_TIME_URL', env.TRAVEL_TIME_URL),
    travelTimeTimeoutMs: milliseconds('TRAVEL_TIME_TIMEOUT_MS', env.TRAVEL_TIME_TIMEOUT_MS, 3000),
    timetableCheckMs: seconds('TIMETABLE_CHECK_SECONDS', env.TIMETABLE_CHECK_SECONDS, 30),
    smtpUrl,
    mailFrom:
      env.MAIL_FROM ||
      `"${messages.mailSignature}" <noreply@${publicUrl ? new URL(publicUrl).hostname : 'csomagkuldo.invalid'}>`,
    mailDir: join(dataDir, 'mail'),
    mailOrigin: publicUrl ?? `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`,
    requireEmailVerification: flag(env.REQUIRE_EMAIL_VERIFICATION, false),
    operatorPages: Object.fromEntries(
      OPERATOR_PAGES.map((page) => {
        const { file, env: name } = operatorPageFiles[page];
        return [page, resolve(env[name] || join(dataDir, 'pages', file))];
      }),
    ) as Record<OperatorPage, string>,
  };
}
