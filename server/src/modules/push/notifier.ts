import type { Language } from '@csomag/domain/language';
import { type PushKind, type PushMessage, pushMessage } from '@csomag/domain/push-kinds';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { Counter, type Registry } from 'prom-client';
import type { VapidDetails } from '../../config.ts';
import { type ChangeFeed, isParcelEntry, type LoggedChange, type ParcelChange } from '../../db/change-feed.ts';
import { HandledThrough } from '../../db/handled-through.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { sayIn } from '../../i18n.ts';
import type { Actor } from '../../policy.ts';
import { type Happening, happeningOf } from '../parcels/happening.ts';
import { mayParcel, relationship } from '../parcels/policy.ts';
import { BoundedQueue } from './queue.ts';
import { type PushOutcome, type PushTarget, sendPush } from './send.ts';

/** Pushes in flight at once per instance: a slow push service holds at most this many, never a request. */
export const PUSH_CONCURRENCY = 8;
/** Waiting beyond this, changes or pushes are dropped (and counted) rather than piling up in memory. */
export const PUSH_QUEUE_LIMIT = 10_000;
/** A push service that has not answered by then is given up on. */
export const PUSH_TIMEOUT_MS = 10_000;
/** Claims outlive the change log (15 minutes), whose catch-up is the only way a change is heard again. */
const CLAIM_KEEP_MS = 60 * 60_000;
const CLAIM_PRUNE_EVERY_MS = 10 * 60_000;

/** What the sender hears of each happening. */
const SENDER_KINDS: Record<Happening, PushKind | null> = {
  on_its_way: 'sent_picked_up',
  attempted: 'sent_attempted',
  returning: 'sent_returning',
  uncollected: 'sent_uncollected',
  // Where it waits is the receiver's to know; the sender hears of the delivery.
  with_neighbour: null,
  at_drop_point: null,
  delivered: 'sent_delivered',
  returned: 'sent_returned',
  lost: 'sent_lost',
};
/** What the receiver hears: not the way back, which is the sender's affair. */
const RECEIVER_KINDS: Record<Happening, PushKind | null> = {
  on_its_way: 'incoming_on_its_way',
  attempted: 'incoming_attempted',
  returning: null,
  uncollected: null,
  with_neighbour: 'incoming_with_neighbour',
  at_drop_point: 'incoming_at_drop_point',
  delivered: 'incoming_delivered',
  returned: null,
  lost: 'incoming_lost',
};

/**
 * What an account hears of a change: the sender (picked up, delivered); the receiver (the parcel
 * policy's relationship, the rule of the incoming list); the runner the back office assigned it
 * to. One kind per account: a sender sending to their own address hears it as the sender.
 */
function kindFor(
  account: NonNullable<Actor> & Pick<AccountRow, 'user_name'>,
  change: ParcelChange,
  happening: Happening,
): PushKind | null {
  const name = account.user_name.toLowerCase();
  if (name === change.senderUser.toLowerCase()) return SENDER_KINDS[happening];
  if (change.kind === 'assigned' && name === change.runner?.toLowerCase() && mayParcel(account, 'listCarried')) {
    return 'assigned';
  }
  if (relationship.receiver(account, { receiver_key: change.receiverKey })) return RECEIVER_KINDS[happening];
  return null;
}

/**
 * The devices to tell of a change, each with its message's kind, in one read: the devices of the
 * accounts the change concerns (the query narrows to candidates first: kindFor decides) and of
 * `offeredTo` (trip_offer, where not told otherwise), less those whose account muted the kind.
 */
export async function devicesToTell(db: Kysely<Database>, change: ParcelChange, offeredTo: readonly number[] = []) {
  const happening = happeningOf(change);
  const names = [
    change.senderUser.toLowerCase(),
    ...(change.kind === 'assigned' && change.runner ? [change.runner.toLowerCase()] : []),
  ];
  const rows = await db
    .selectFrom('push_subscriptions')
    .innerJoin('accounts', 'accounts.id', 'push_subscriptions.account_id')
    .leftJoin('push_muted_kinds', 'push_muted_kinds.account_id', 'push_subscriptions.account_id')
    .select([
      'accounts.id as account_id',
      'accounts.user_name',
      'accounts.role',
      'accounts.address_key',
      'accounts.approved_at',
      'accounts.suspended_at',
      'accounts.language',
      'push_subscriptions.id',
      'push_subscriptions.endpoint',
      'push_subscriptions.p256dh',
      'push_subscriptions.auth',
      'push_muted_kinds.kind as muted',
    ])
    .where((eb) =>
      eb.or([
        ...(happening ? [eb(sql<string>`lower(accounts.user_name)`, 'in', names)] : []),
        ...(happening && change.receiverKey
          ? [eb.and([eb('accounts.address_key', '=', change.receiverKey), eb('accounts.role', '=', 'user')])]
          : []),
        ...(offeredTo.length > 0 ? [eb('accounts.id', 'in', offeredTo)] : []),
      ]),
    )
    .execute();
  const kinds = new Map<number, PushKind>();
  const offered = new Set(offeredTo);
  for (const row of rows) {
    if (kinds.has(row.account_id)) continue;
    const kind = (happening && kindFor({ ...row, id: row.account_id }, change, happening)) || null;
    if (kind) kinds.set(row.account_id, kind);
    else if (offered.has(row.account_id)) kinds.set(row.account_id, 'trip_offer');
  }
  const mutedBy = new Set(rows.filter((row) => row.muted === kinds.get(row.account_id)).map((row) => row.account_id));
  const devices = new Map<number, Device>();
  for (const { account_id, language, id, endpoint, p256dh, auth } of rows) {
    const kind = kinds.get(account_id);
    if (kind && !mutedBy.has(account_id)) devices.set(id, { id, account_id, language, endpoint, p256dh, auth, kind });
  }
  return [...devices.values()];
}

/** A device to tell, and what. */
type Device = PushTarget & { id: number; account_id: number; language: Language | null; kind: PushKind };

/** The runners a new parcel is offered to (modules/trips/trip-offers.ts): push kind trip_offer. */
export interface TripOfferSource {
  offersFor(entry: LoggedChange): Promise<readonly { accountId: number }[]>;
}

export interface PushNotifierOptions {
  db: Kysely<Database>;
  /** Absent: no trip offers by push. */
  tripOffers?: TripOfferSource;
  changeFeed: ChangeFeed;
  vapid: VapidDetails;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  registry: Registry;
  timeoutMs?: number;
}

/**
 * Sends Web Push notifications for committed parcel changes (docs/decisions/0018). It listens to
 * the change feed, so no request ever waits for a push service; each change is claimed in
 * push_claims first, so with several instances on one PostgreSQL only the one whose insert won
 * sends it. Changes are handled one at a time, in feed order; pushes go out PUSH_CONCURRENCY at a
 * time, each cut off after PUSH_TIMEOUT_MS.
 */
/** A push said in its recipient's language (issue 30): their account's choice, else Hungarian. */
function inLanguage(message: PushMessage, language: Language | null): PushMessage {
  if (language === null || language === message.lang) return message;
  return { ...message, title: sayIn(language, message.title), status: sayIn(language, message.status), lang: language };
}

export class PushNotifier {
  private readonly changes = new BoundedQueue(1, PUSH_QUEUE_LIMIT);
  private readonly pushes = new BoundedQueue(PUSH_CONCURRENCY, PUSH_QUEUE_LIMIT);
  private readonly closing = new AbortController();
  private unsubscribe: (() => void) | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  /** The changes this instance has heard (notifiable or not). */
  private readonly handled = new HandledThrough();
  private readonly changeCounter: Counter<'outcome'>;
  private readonly pushCounter: Counter<'outcome'>;

  constructor(private readonly options: PushNotifierOptions) {
    this.changeCounter = new Counter({
      name: 'csomagkuldo_push_changes_total',
      help: 'Parcel changes with news to tell, by what this instance did: sent (it claimed them), claimed_elsewhere, no_device (nobody to tell has a device), dropped, failed.',
      labelNames: ['outcome'],
      registers: [options.registry],
    });
    this.pushCounter = new Counter({
      name: 'csomagkuldo_push_notifications_total',
      help: 'Push notifications sent by this instance, by outcome: delivered, gone (device forgotten), failed, timeout, dropped.',
      labelNames: ['outcome'],
      registers: [options.registry],
    });
    for (const outcome of ['sent', 'claimed_elsewhere', 'no_device', 'dropped', 'failed'])
      this.changeCounter.inc({ outcome }, 0);
    for (const outcome of ['delivered', 'gone', 'failed', 'timeout', 'dropped']) this.pushCounter.inc({ outcome }, 0);
  }

  start() {
    this.unsubscribe ??= this.options.changeFeed.subscribe((entry) => this.heard(entry));
    this.pruneTimer ??= setInterval(() => {
      this.pruneClaims().catch((error) => this.options.log.warn({ err: error }, 'pruning push claims failed'));
    }, CLAIM_PRUNE_EVERY_MS).unref();
  }

  async close() {
    this.unsubscribe?.();
    clearInterval(this.pruneTimer);
    this.closing.abort();
    await this.changes.idle();
    await this.pushes.idle();
  }

  /**
   * Resolves once this instance has heard the change `changeId` (or a later one) and finished
   * everything it queued by then: for tests and for draining.
   */
  settledThrough(changeId: number): Promise<void> {
    return this.handled.settled(changeId, async () => {
      await this.changes.idle();
      await this.pushes.idle();
    });
  }

  async pruneClaims(now = Date.now()) {
    await this.options.db
      .deleteFrom('push_claims')
      .where('claimed_ms', '<', now - CLAIM_KEEP_MS)
      .execute();
  }

  private heard(entry: LoggedChange) {
    if (!isParcelEntry(entry)) {
      this.handled.heard(entry.id);
      return;
    }
    if (happeningOf(entry.change) || (entry.change.kind === 'created' && this.options.tripOffers)) {
      const taken = this.changes.push(() => this.handle(entry));
      if (!taken) {
        this.changeCounter.inc({ outcome: 'dropped' });
        this.options.log.warn({ changeId: entry.id }, 'push queue full: change not notified');
      }
    }
    this.handled.heard(entry.id);
  }

  private async handle(entry: LoggedChange<ParcelChange>) {
    const { db, log } = this.options;
    // Closing: leave the change unclaimed, for an instance that stays up to send.
    if (this.closing.signal.aborted) return;
    try {
      // A new parcel is news only to runners it fits (looked up once per instance, shared with the
      // live offers; never a parcel's sender: a runner).
      const offers = (await this.options.tripOffers?.offersFor(entry)) ?? [];
      if (!happeningOf(entry.change) && offers.length === 0) return;
      const devices = await devicesToTell(
        db,
        entry.change,
        offers.map((offer) => offer.accountId),
      );
      // Nothing to send, nothing to claim: most changes, where few have the app installed.
      if (devices.length === 0) {
        this.changeCounter.inc({ outcome: 'no_device' });
        return;
      }
      if (!(await this.claim(entry.id))) {
        this.changeCounter.inc({ outcome: 'claimed_elsewhere' });
        return;
      }
      this.changeCounter.inc({ outcome: 'sent' });
      for (const { kind, language, ...device } of devices) {
        const message = inLanguage(pushMessage(kind, entry.change.parcelId), language);
        const taken = this.pushes.push(() => this.deliver(device, message, entry));
        if (!taken) this.pushCounter.inc({ outcome: 'dropped' });
      }
    } catch (error) {
      this.changeCounter.inc({ outcome: 'failed' });
      log.error({ err: error, changeId: entry.id }, 'push notifications for a change failed');
    }
  }

  /** Whether this instance is the one to send the change: the first insert of its id wins. */
  private async claim(changeId: number): Promise<boolean> {
    const claimed = await this.options.db
      .insertInto('push_claims')
      .values({ change_id: changeId, claimed_ms: Date.now() })
      .onConflict((oc) => oc.column('change_id').doNothing())
      .returning('change_id')
      .executeTakeFirst();
    return claimed !== undefined;
  }

  private async deliver(
    device: PushTarget & { id: number },
    message: ReturnType<typeof pushMessage>,
    entry: LoggedChange,
  ) {
    const { db, log, vapid } = this.options;
    let outcome: PushOutcome = 'failed';
    try {
      const result = await sendPush(
        device,
        message,
        vapid,
        this.options.timeoutMs ?? PUSH_TIMEOUT_MS,
        this.closing.signal,
      );
      outcome = result.outcome;
      if (outcome === 'gone') {
        // The browser unsubscribed or the push service forgot it: it will never answer again.
        await db.deleteFrom('push_subscriptions').where('id', '=', device.id).execute();
        log.info({ device: device.id, status: result.status }, 'push device gone, forgotten');
      } else if (outcome !== 'delivered') {
        log.warn(
          { device: device.id, status: result.status, outcome, requestId: entry.requestId },
          'push notification not delivered',
        );
      }
    } catch (error) {
      log.error({ err: error, device: device.id }, 'push notification failed');
    } finally {
      this.pushCounter.inc({ outcome });
    }
  }
}
