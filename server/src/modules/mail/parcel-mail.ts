import { attemptReasonLabels } from '@csomag/domain/attempts';
import {
  isSenderMailKind,
  type ReceiverMailKind,
  receiverTemplate,
  type SenderMailKind,
  senderTemplate,
} from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import type { Kysely, Transaction } from 'kysely';
import { type ChangesHook, type FeedChange, isParcelChange, type ParcelChange } from '../../db/change-feed.ts';
import { compiledPerStore } from '../../db/compiled-once.ts';
import type { Database } from '../../db/schema.ts';
import { derivedKey, signToken, verifyToken } from '../../signed-token.ts';
import { type Happening, happeningOf } from '../parcels/happening.ts';
import { type ComposedMail, composeMail } from './compose.ts';
import { enqueueMail } from './outbox.ts';

/*
 * Mail about parcels (issue 29, docs/decisions/0031): a receiver the sender gave an email address
 * for, and a sender with a verified address, are told of the parcel's way. Written inside the
 * transaction of the change (the change feed's hook), so a message exists exactly when its change
 * committed; the worker sends it.
 */

/** What each happening tells the receiver by mail (not the way back: the sender's affair). */
const RECEIVER_NEWS: Record<Happening, ReceiverMailKind | null> = {
  on_its_way: 'picked_up',
  attempted: 'attempted',
  returning: null,
  uncollected: null,
  with_neighbour: 'with_neighbour',
  at_drop_point: 'at_drop_point',
  delivered: 'delivered',
  returned: null,
  lost: null,
};

/** What the sender is told by mail (push tells the rest). */
const SENDER_NEWS: Record<Happening, SenderMailKind | null> = {
  on_its_way: 'picked_up',
  attempted: 'attempted',
  returning: null,
  uncollected: null,
  with_neighbour: null,
  at_drop_point: null,
  delivered: 'delivered',
  returned: null,
  lost: 'reported',
};

interface News {
  receiver: ReceiverMailKind | null;
  sender: SenderMailKind | null;
}

export function newsOf(change: ParcelChange): News {
  if (change.kind === 'created') return { receiver: 'coming', sender: null };
  if (change.kind === 'runner_located') return { receiver: change.nearReceiver ? 'near' : null, sender: null };
  if (change.kind === 'incident_reported') return { receiver: null, sender: 'reported' };
  const happening = happeningOf(change);
  return happening ? { receiver: RECEIVER_NEWS[happening], sender: SENDER_NEWS[happening] } : NO_NEWS;
}
const NO_NEWS: News = { receiver: null, sender: null };

// ——— the links in a message ———

/** The receiver's link stays good this long: long enough for a parcel that waits at a drop point. */
const RECEIVER_LINK_DAYS = 120;
/** A stop link stays good a year: an old message's stop should still work. */
const STOP_LINK_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface MailKeys {
  /** Signs the receiver's link (the capability that shows them their code). */
  receiverLink: Buffer;
  /** Signs the one-click stop links. */
  stop: Buffer;
}

export const mailKeys = (sessionSecret: string): MailKeys => ({
  receiverLink: derivedKey(sessionSecret, 'csomagkuldo/receiver-link/v1'),
  stop: derivedKey(sessionSecret, 'csomagkuldo/mail-stop/v1'),
});

/**
 * The receiver's link's key: bound to the parcel and the address it was sent to, so a link stops
 * working if the sender's address for them changes. Not guessable from the parcel's id.
 */
export const receiverLinkToken = (keys: MailKeys, parcelId: string, email: string, now = Date.now()) =>
  signToken(keys.receiverLink, [parcelId, email.toLowerCase()], [], now + RECEIVER_LINK_DAYS * DAY_MS);

export const receiverLinkValid = (keys: MailKeys, parcelId: string, email: string, token: string, now = Date.now()) =>
  verifyToken(keys.receiverLink, [parcelId, email.toLowerCase()], 0, token, now).verdict === 'valid';

/** What a stop link switches off: mail about one parcel to its receiver, or one kind of a sender's mail. */
export type StopScope = { parcelId: string } | { accountId: number; kind: SenderMailKind };

const scopeText = (scope: StopScope) =>
  'parcelId' in scope ? `parcel:${scope.parcelId}` : `account:${scope.accountId}:${scope.kind}`;

/** `<scope in base64url>.<expiry>.<mac>`: the scope rides in the token, signed with it. */
export function stopToken(keys: MailKeys, scope: StopScope, now = Date.now()): string {
  const text = scopeText(scope);
  return `${Buffer.from(text).toString('base64url')}.${signToken(keys.stop, [text], [], now + STOP_LINK_DAYS * DAY_MS)}`;
}

export function readStopToken(keys: MailKeys, token: string, now = Date.now()): StopScope | null {
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const text = Buffer.from(token.slice(0, dot), 'base64url').toString();
  if (verifyToken(keys.stop, [text], 0, token.slice(dot + 1), now).verdict !== 'valid') return null;
  const parcel = /^parcel:(.+)$/.exec(text);
  if (parcel?.[1]) return { parcelId: parcel[1] };
  const account = /^account:(\d+):(.+)$/.exec(text);
  const kind = account?.[2];
  if (account?.[1] && isSenderMailKind(kind)) return { accountId: Number(account[1]), kind };
  return null;
}

// ——— the messages ———

export interface ParcelMailContext {
  origin: string;
  keys: MailKeys;
  dropPointHoldDays: number;
}

type Trx = Transaction<Database>;

/** What a parcel's mail says, and whether its sender switched off `senderKind` (null: no mail to them). */
async function parcelFacts(trx: Trx, parcelId: string, senderKind: SenderMailKind | null) {
  const [facts] = await parcelFactsRead(trx, parcelId, senderKind ?? '');
  return facts;
}

/** parcelFacts' read, built and compiled once: every change a parcel's people may hear of makes it. */
const parcelFactsRead = compiledPerStore(2, (db: Kysely<Database>, parcelId: string, mutedKind: string) =>
  db
    .selectFrom('parcels')
    .innerJoin('accounts as sender', 'sender.id', 'parcels.sender_id')
    .leftJoin('drop_points', 'drop_points.id', 'parcels.drop_point_id')
    .leftJoin('mail_muted_kinds as muted', (join) =>
      join.onRef('muted.account_id', '=', 'parcels.sender_id').on('muted.kind', '=', mutedKind),
    )
    .select([
      'parcels.id',
      'parcels.receiver_email',
      'parcels.receiver_mail_stopped_at',
      'parcels.returning',
      'parcels.neighbour_name',
      'parcels.neighbour_door',
      'sender.id as sender_id',
      'sender.name as sender_name',
      'sender.email as sender_email',
      'sender.email_verified_at as sender_verified_at',
      'sender.language as sender_language',
      'drop_points.name as drop_point_name',
      'drop_points.address as drop_point_address',
      'drop_points.opening_hours as drop_point_hours',
      'muted.kind as sender_muted',
    ])
    .where('parcels.id', '=', parcelId),
);
type Facts = NonNullable<Awaited<ReturnType<typeof parcelFacts>>>;

async function lastAttemptReason(trx: Trx, parcelId: string) {
  const attempt = await trx
    .selectFrom('delivery_attempts')
    .select('reason')
    .where('parcel_id', '=', parcelId)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst();
  return attempt ? attemptReasonLabels[attempt.reason] : attemptReasonLabels.other;
}

const placeOf = (facts: Facts) => `${facts.drop_point_name ?? ''}, ${facts.drop_point_address ?? ''}`;

/** A message's two stop links from its one token: the page in the body, the mail client's one-click URL. */
const stopLinks = (ctx: ParcelMailContext, token: string) => ({
  page: `${ctx.origin}${paths.unsubscribe}#token=${token}`,
  oneClick: `${ctx.origin}/api/mail/unsubscribe?token=${token}`,
});
type StopLinks = ReturnType<typeof stopLinks>;

async function receiverMail(
  trx: Trx,
  ctx: ParcelMailContext,
  kind: ReceiverMailKind,
  facts: Facts,
  email: string,
  stopAt: StopLinks,
): Promise<ComposedMail> {
  const id = facts.id;
  const link = `${ctx.origin}${paths.tracking(id)}#link=${receiverLinkToken(ctx.keys, id, email)}`;
  const stop = { text: messages.mailReceiverStop, url: stopAt.page };
  const base = {
    greeting: messages.mailGreetingReceiver,
    action: { label: messages.mailTrackButton, url: link },
    stop,
  };
  switch (kind) {
    case 'coming':
      return composeMail({
        ...base,
        subject: messages.mailReceiverComingSubject(id),
        paragraphs: [
          messages.mailReceiverComing(facts.sender_name, id),
          ...(facts.drop_point_name ? [messages.mailReceiverComingToDropPoint(placeOf(facts))] : []),
          messages.mailReceiverCodeNote,
        ],
      });
    case 'picked_up':
      return composeMail({
        ...base,
        subject: messages.mailReceiverPickedUpSubject(id),
        paragraphs: [messages.mailReceiverPickedUp, messages.mailReceiverCodeNote],
      });
    case 'near':
      return composeMail({
        ...base,
        subject: messages.mailReceiverNearSubject(id),
        paragraphs: [messages.mailReceiverNear, messages.mailReceiverCodeNote],
      });
    case 'attempted':
      return composeMail({
        ...base,
        subject: messages.mailReceiverAttemptedSubject(id),
        paragraphs: [
          messages.mailReceiverAttempted(await lastAttemptReason(trx, id)),
          messages.mailReceiverAttemptedNext,
        ],
      });
    case 'with_neighbour':
      return composeMail({
        ...base,
        subject: messages.mailReceiverWithNeighbourSubject(id),
        paragraphs: [messages.mailReceiverWithNeighbour(facts.neighbour_name ?? '', facts.neighbour_door ?? '')],
      });
    case 'at_drop_point':
      return composeMail({
        ...base,
        subject: messages.mailReceiverAtDropPointSubject(id),
        paragraphs: [
          messages.mailReceiverAtDropPoint(placeOf(facts), facts.drop_point_hours ?? '', ctx.dropPointHoldDays),
        ],
      });
    case 'delivered':
      return composeMail({
        ...base,
        subject: messages.mailReceiverDeliveredSubject(id),
        paragraphs: [messages.mailReceiverDelivered],
      });
  }
}

async function senderMail(
  trx: Trx,
  ctx: ParcelMailContext,
  kind: SenderMailKind,
  facts: Facts,
  change: ParcelChange,
  stopAt: StopLinks,
): Promise<ComposedMail> {
  const id = facts.id;
  // In the sender's language (issue 30); the receiver, known by an address only, reads Hungarian.
  const language = facts.sender_language ?? undefined;
  const base = {
    greeting: messages.mailGreeting(facts.sender_name),
    action: { label: messages.mailTrackButton, url: `${ctx.origin}${paths.tracking(id)}` },
    stop: { text: messages.mailSenderStop, url: stopAt.page },
  };
  switch (kind) {
    case 'picked_up':
      return composeMail(
        {
          ...base,
          subject: messages.mailSenderPickedUpSubject(id),
          paragraphs: [messages.mailSenderPickedUp],
        },
        language,
      );
    case 'attempted':
      return composeMail(
        {
          ...base,
          subject: messages.mailSenderAttemptedSubject(id),
          paragraphs: [messages.mailSenderAttempted(await lastAttemptReason(trx, id))],
        },
        language,
      );
    case 'delivered':
      return composeMail(
        {
          ...base,
          subject: messages.mailSenderDeliveredSubject(id),
          paragraphs: [messages.mailSenderDelivered],
        },
        language,
      );
    case 'reported':
      return composeMail(
        {
          ...base,
          subject: messages.mailSenderReportedSubject(id),
          paragraphs: [change.kind === 'lost' ? messages.mailSenderLost : messages.mailSenderReported],
        },
        language,
      );
  }
}

/**
 * The mail one change causes, written in its transaction: to the receiver's address (unless they
 * stopped it, the parcel is on its way back, or it is the sender's own address), and to the sender
 * (a verified address, the kind not switched off). Returns how many messages it wrote.
 */
export async function mailAboutChange(trx: Trx, ctx: ParcelMailContext, change: ParcelChange): Promise<number> {
  const news = newsOf(change);
  if (!news.receiver && !news.sender) return 0;
  const facts = await parcelFacts(trx, change.parcelId, news.sender);
  if (!facts) return 0;
  let written = 0;
  const senderEmail = facts.sender_email.toLowerCase();
  const receiverEmail = facts.receiver_email?.toLowerCase();
  if (
    news.receiver &&
    receiverEmail &&
    facts.receiver_mail_stopped_at === null &&
    facts.returning === 0 &&
    receiverEmail !== senderEmail
  ) {
    const stopAt = stopLinks(ctx, stopToken(ctx.keys, { parcelId: facts.id }));
    await enqueueMail(trx, {
      to: receiverEmail,
      template: receiverTemplate(news.receiver),
      composed: await receiverMail(trx, ctx, news.receiver, facts, receiverEmail, stopAt),
      unsubscribeUrl: stopAt.oneClick,
      parcelId: facts.id,
    });
    written++;
  }
  if (news.sender && facts.sender_verified_at !== null) {
    if (facts.sender_muted === null) {
      const stopAt = stopLinks(ctx, stopToken(ctx.keys, { accountId: facts.sender_id, kind: news.sender }));
      await enqueueMail(trx, {
        to: senderEmail,
        template: senderTemplate(news.sender),
        composed: await senderMail(trx, ctx, news.sender, facts, change, stopAt),
        unsubscribeUrl: stopAt.oneClick,
        parcelId: facts.id,
      });
      written++;
    }
  }
  return written;
}

/** The change feed's hook: every parcel change's mail, in its transaction; `wrote` is told when any was written. */
export const parcelMailHook =
  (ctx: ParcelMailContext, wrote: () => void): ChangesHook =>
  async (trx, changes: readonly FeedChange[]) => {
    let written = 0;
    for (const change of changes) {
      if (isParcelChange(change)) written += await mailAboutChange(trx, ctx, change);
    }
    if (written > 0) wrote();
  };

/**
 * The one-click stop (RFC 8058, and the page behind the message's link): mail about the parcel to
 * its receiver, or the sender's kind switched off. Doing it twice is harmless.
 */
export async function applyStop(db: Kysely<Database>, scope: StopScope, now: string) {
  if ('parcelId' in scope) {
    await db
      .updateTable('parcels')
      .set({ receiver_mail_stopped_at: now })
      .where('id', '=', scope.parcelId)
      .where('receiver_mail_stopped_at', 'is', null)
      .execute();
    return;
  }
  // An account removed since: nothing to switch off.
  const account = await db.selectFrom('accounts').select('id').where('id', '=', scope.accountId).executeTakeFirst();
  if (!account) return;
  await db
    .insertInto('mail_muted_kinds')
    .values({ account_id: scope.accountId, kind: scope.kind })
    .onConflict((oc) => oc.columns(['account_id', 'kind']).doNothing())
    .execute();
}
