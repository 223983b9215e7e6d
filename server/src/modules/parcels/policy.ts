import { messages } from '@csomag/domain/messages';
import type { preHandlerHookHandler } from 'fastify';
import type { AccountRow, ParcelRow } from '../../db/schema.ts';
import { refuse } from '../../errors.ts';
import { type Actor, hasRole as is, policyGuard, type ReceiverByLink, refusalBy, trusted } from '../../policy.ts';

export type { Actor, ReceiverByLink };

/** What the parcel rules look at: select these columns to ask the policy about a parcel. */
export const PARCEL_FACT_COLUMNS = ['sender_id', 'runner_id', 'receiver_key', 'holder_kind', 'holder_id'] as const;
export type ParcelFacts = Pick<ParcelRow, (typeof PARCEL_FACT_COLUMNS)[number]>;

/** An account as far as being one party or another to a parcel goes. */
type Someone = Pick<AccountRow, 'id'> | null;

/**
 * The relationships a person can have with a parcel, each defined once: every module asks these
 * (the rules below, the live topics, push recipients, ratings, reports, proofs).
 */
export const relationship = {
  /** Sent it. */
  sender: (actor: Someone, parcel: { sender_id: number | null }) => actor !== null && parcel.sender_id === actor.id,
  /**
   * Receives it: a user whose own address is the destination, compared as addresses are (an
   * empty address receives nothing).
   */
  receiver: (actor: Actor, parcel: Pick<ParcelRow, 'receiver_key'>) =>
    is(actor, 'user') && actor?.address_key !== '' && actor?.address_key === parcel.receiver_key,
  /** The runner of record: carrying it now, or the last to carry it once delivered. */
  carrier: (actor: Someone, parcel: Pick<ParcelRow, 'runner_id'>) => actor !== null && parcel.runner_id === actor.id,
  /** Holds it now, as the custody chain says (docs/decisions/0022). */
  holder: (actor: Someone, parcel: Pick<ParcelRow, 'holder_kind' | 'holder_id'>) =>
    actor !== null && parcel.holder_kind === 'runner' && parcel.holder_id === actor.id,
} as const;

const { sender, receiver, carrier, holder } = relationship;

/**
 * Every "may this account do this to a parcel?" of the product, in one table: HTTP routes (their
 * guards), services (with the parcel in hand), the live-update hub (topics) and the trip offers all
 * ask it. Without a parcel a rule answers whether the actor may do it to some parcel — what a route
 * checks before it reads one; with the parcel, whether to that one. The state a change needs
 * (waiting, in transit) is not a permission: the change's own conditional write checks it (changes.ts).
 */
const rules = {
  /** The public tracking view: anyone holding the id. */
  track: () => true,
  /** The full parcel (addresses, timeline with names, contacts). */
  view: (actor: Actor, parcel?: ParcelFacts) =>
    is(actor, 'superadmin') || (parcel ? sender(actor, parcel) || carrier(actor, parcel) : is(actor, 'user', 'runner')),
  send: (actor: Actor) => is(actor, 'user', 'superadmin'),
  /** Whose parcel it can be: a parcel's sender is a user account. */
  beSender: (actor: Actor) => is(actor, 'user'),
  /** Name another account as the sender (the back office creating a parcel for a user). */
  sendForOthers: (actor: Actor) => is(actor, 'superadmin'),
  cancel: (actor: Actor, parcel?: ParcelFacts) => is(actor, 'user') && (!parcel || sender(actor, parcel)),
  listSent: (actor: Actor) => is(actor, 'user'),
  listIncoming: (actor: Actor) => is(actor, 'user'),
  /** The waiting pool (list, runner map, relay offers) and its live changes: trusted runners and the back office. */
  listWaiting: (actor: Actor) => is(actor, 'superadmin') || trusted(actor),
  listCarried: (actor: Actor) => is(actor, 'runner'),
  /** Every parcel (back-office list, admin map) and every live change. */
  listAll: (actor: Actor) => is(actor, 'superadmin'),
  pickUp: (actor: Actor) => trusted(actor),
  /** Be named by the back office as a parcel's runner. */
  beAssigned: (actor: Actor) => trusted(actor),
  deliver: (actor: Actor, parcel?: ParcelFacts) =>
    is(actor, 'superadmin') || (is(actor, 'runner') && (!parcel || carrier(actor, parcel))),
  /** The back office hands over without standing at the door. */
  deliverWithoutPosition: (actor: Actor) => is(actor, 'superadmin'),
  /** 'Nem sikerült kézbesíteni' (issue 28): the runner carrying it, at the door. */
  recordAttempt: (actor: Actor, parcel?: ParcelFacts) => is(actor, 'runner') && (!parcel || carrier(actor, parcel)),
  /** 'Visszaviszem a feladónak': the runner carrying it (a suspended one too: it is how they let go honestly). */
  startReturn: (actor: Actor, parcel?: ParcelFacts) => is(actor, 'runner') && (!parcel || carrier(actor, parcel)),
  /** A new time for the next attempt: the parcel's receiver or sender, or the back office for them. */
  requestRedelivery: (actor: Actor, parcel?: ParcelFacts) =>
    is(actor, 'superadmin') || (is(actor, 'user') && (!parcel || sender(actor, parcel) || receiver(actor, parcel))),
  /** Hand over with the PIN the person at the door reads out: the runner carrying it. */
  handOverByPin: (actor: Actor, parcel?: ParcelFacts) => is(actor, 'runner') && (!parcel || carrier(actor, parcel)),
  /** 'Szomszédnál hagyom': the runner carrying it, at the receiver's door. */
  leaveWithNeighbour: (actor: Actor, parcel?: ParcelFacts) =>
    is(actor, 'runner') && (!parcel || carrier(actor, parcel)),
  /** The code the neighbour was given, again: the runner who left it there (its runner of record). */
  seeNeighbourPin: (actor: Actor, parcel?: ParcelFacts) => is(actor, 'runner') && (!parcel || carrier(actor, parcel)),
  /** Collect it from the neighbour with their code: the receiver. */
  collect: (actor: Actor, parcel?: ParcelFacts) => is(actor, 'user') && (!parcel || receiver(actor, parcel)),
  /**
   * Send it to a drop point instead of the door (issue 28): its receiver or sender (after a failed
   * attempt: the service's state), or its carrier who cannot finish ('Visszaadom').
   */
  chooseDropPoint: (actor: Actor, parcel?: ParcelFacts) =>
    is(actor, 'superadmin') ||
    (is(actor, 'user') && (!parcel || sender(actor, parcel) || receiver(actor, parcel))) ||
    (is(actor, 'runner') && (!parcel || carrier(actor, parcel))),
  /** 'Probléma bejelentése': the runner carrying it reports damage or loss (issue 28). */
  reportIncident: (actor: Actor, parcel?: ParcelFacts) => is(actor, 'runner') && (!parcel || carrier(actor, parcel)),
  /** The leg's handover PIN: the person it is brought to (the service tells receiver from sender by the leg). */
  seeHandoverPin: (actor: Actor, parcel?: ParcelFacts) =>
    is(actor, 'user') && (!parcel || sender(actor, parcel) || receiver(actor, parcel)),
  /** The failed attempts with their reasons: the parties, the carrier and the back office. */
  seeAttempts: (actor: Actor, parcel?: ParcelFacts) =>
    is(actor, 'superadmin') ||
    (parcel ? sender(actor, parcel) || receiver(actor, parcel) || carrier(actor, parcel) : actor !== null),
  /** The QR code the receiver scans: only the runner carrying the parcel shows one. */
  showHandoverCode: (actor: Actor, parcel?: ParcelFacts) => is(actor, 'runner') && (!parcel || carrier(actor, parcel)),
  /** The delivery photo, and a failed attempt's photo of the door: the runner of record (until shortly after delivery: a state, proofs' window). */
  addPhoto: (actor: Actor, parcel?: ParcelFacts) => is(actor, 'runner') && (!parcel || carrier(actor, parcel)),
  /** Photos and signatures: the sender, the receiver and the back office — never the runner or a stranger. */
  seeProof: (actor: Actor, parcel?: ParcelFacts) =>
    is(actor, 'superadmin') || (parcel ? sender(actor, parcel) || receiver(actor, parcel) : actor !== null),
  /** 'Nem érkezett meg': the sender or the receiver. */
  report: (actor: Actor, parcel?: ParcelFacts) =>
    is(actor, 'user') && (!parcel || sender(actor, parcel) || receiver(actor, parcel)),
  /** 'Továbbadnám' and the next runner's link: the runner holding it, trusted to hand on. */
  offerForRelay: (actor: Actor, parcel?: ParcelFacts) => trusted(actor) && (!parcel || holder(actor, parcel)),
  /** 'Átveszem' and reserving an offer: a trusted runner other than the one holding it. */
  takeOver: (actor: Actor, parcel?: ParcelFacts) => trusted(actor) && (!parcel || !holder(actor, parcel)),
  /** The custody chain and the recorded override. */
  seeCustody: (actor: Actor) => is(actor, 'superadmin'),
  /** Who confirmed a QR hand-over (the signed-in account, or the link holder's typed name): the back office. */
  seeHandoverConfirmer: (actor: Actor) => is(actor, 'superadmin'),
  /** New parcels offered to a saved trip, live and by push (issue 13). */
  receiveTripOffers: (actor: Actor) => trusted(actor),
  edit: (actor: Actor) => is(actor, 'superadmin'),
  delete: (actor: Actor) => is(actor, 'superadmin'),
  assign: (actor: Actor) => is(actor, 'superadmin'),
} satisfies Record<string, (actor: Actor, parcel?: ParcelFacts) => boolean>;

export type ParcelAction = keyof typeof rules;
export const PARCEL_ACTIONS = Object.keys(rules) as ParcelAction[];

export const mayParcel = (actor: Actor, action: ParcelAction, parcel?: ParcelFacts): boolean =>
  rules[action](actor, parcel);

/**
 * Why `account` may not do `action` (null: it may): the trust refusal when trust alone stands in
 * the way (`as`: told to the runner, or to the back office naming them as an assignee), else 403.
 */
export const parcelRefusal = (
  account: NonNullable<Actor> & Pick<AccountRow, 'suspended_reason'>,
  action: ParcelAction,
  parcel?: ParcelFacts,
  as: 'self' | 'assignee' = 'self',
) => refusalBy((actor) => mayParcel(actor, action, parcel), account, as);

export function assertMayParcel(
  account: NonNullable<Actor> & Pick<AccountRow, 'suspended_reason'>,
  action: ParcelAction,
  parcel?: ParcelFacts,
) {
  const refusal = parcelRefusal(account, action, parcel);
  if (refusal) throw refusal;
}

/**
 * What the receiver without an account may do through the link in their mail (issue 29), to that
 * parcel alone — what its receiver with an account may: read the failed attempts and the photo of
 * the door, ask for a new time, a neighbour or a drop point, collect it from the neighbour.
 */
const RECEIVER_LINK_ACTIONS: ReadonlySet<ParcelAction> = new Set<ParcelAction>([
  'seeAttempts',
  'seeProof',
  'requestRedelivery',
  'chooseDropPoint',
  'collect',
]);
export const mayByReceiverLink = (action: ParcelAction) => RECEIVER_LINK_ACTIONS.has(action);

/** Who asks about a parcel: a signed-in account, or its receiver through their link. */
export type Party = AccountRow | ReceiverByLink;
export const isReceiverByLink = (party: NonNullable<Actor> | ReceiverByLink): party is ReceiverByLink =>
  'receiverOf' in party;

/** May `party` do `action` to the parcel `parcelId` (its facts, when read)? */
export const mayParty = (
  party: NonNullable<Actor> | ReceiverByLink,
  action: ParcelAction,
  parcelId: string,
  parcel?: ParcelFacts,
): boolean =>
  isReceiverByLink(party)
    ? party.receiverOf === parcelId && mayByReceiverLink(action)
    : mayParcel(party, action, parcel);

/**
 * Refuses `party` `action` on the parcel `parcelId` (its facts, when read) as the policy says; the
 * answer is who to record as having done it: the account, or null for the receiver by link.
 */
export function assertPartyMay(party: Party, action: ParcelAction, parcelId: string, parcel?: ParcelFacts) {
  if (!isReceiverByLink(party)) {
    assertMayParcel(party, action, parcel);
    return party;
  }
  if (!mayParty(party, action, parcelId)) throw refuse('forbidden', messages.forbidden);
  return null;
}

/** A route's guard from this policy: may the signed-in account do `action` to some parcel? */
export const parcelGuard = (action: ParcelAction): preHandlerHookHandler =>
  policyGuard((actor) => mayParcel(actor, action));
