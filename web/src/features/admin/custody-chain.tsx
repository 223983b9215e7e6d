import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { CustodyEvent, CustodyHow } from '@csomag/domain/relay';
import { QueryState } from '../../components/query-state.tsx';
import { useCustodyChain } from './api.ts';

const partyKinds: Record<CustodyEvent['from']['kind'], string> = {
  sender: messages.custodySender,
  runner: messages.custodyRunner,
  neighbour: messages.custodyNeighbour,
  drop_point: messages.custodyDropPoint,
  receiver: messages.custodyReceiver,
  none: messages.custodyNobody,
};

const howLabels: Record<CustodyHow, string> = {
  sender: messages.custodyHowSender,
  runner: messages.custodyHowRunner,
  receiver_qr: messages.custodyHowReceiverQr,
  sender_qr: messages.custodyHowSenderQr,
  receiver_pin: messages.custodyHowReceiverPin,
  sender_pin: messages.custodyHowSenderPin,
  neighbour_name: messages.custodyHowNeighbourName,
  drop_point_pin: messages.custodyHowDropPointPin,
  drop_point_staff: messages.custodyHowDropPointStaff,
  deadline: messages.custodyHowDeadline,
  runner_qr: messages.custodyHowRunnerQr,
  runner_pin: messages.custodyHowRunnerPin,
  admin: messages.custodyHowAdmin,
  migration: messages.custodyHowMigration,
};

/** 'futár (nagy_bence)': who held it, by role and, where there is an account, its user name. */
const party = ({ kind, userName }: CustodyEvent['from']) =>
  kind === 'none' ? partyKinds.none : userName ? `${partyKinds[kind]} (${userName})` : partyKinds[kind];

/** A change of hands by its kind: nouns of their own, so the chain never repeats the timeline's sentences. */
const kindLabels: Record<CustodyEvent['kind'], string> = {
  created: messages.custodyKindCreated,
  picked_up: messages.custodyKindPickedUp,
  assigned: messages.custodyKindAssigned,
  given_back: messages.custodyKindGivenBack,
  delivered: messages.custodyKindDelivered,
  handed_over_qr: messages.custodyKindHandedOverQr,
  relayed: messages.custodyKindRelayed,
  override: messages.custodyKindOverride,
  status_changed: messages.custodyKindStatusChanged,
  cancelled: messages.custodyKindCancelled,
  deleted: messages.custodyKindDeleted,
  attempted: messages.custodyKindAttempted,
  return_started: messages.custodyKindReturnStarted,
  returned: messages.custodyKindReturned,
  handed_over_pin: messages.custodyKindHandedOverPin,
  left_with_neighbour: messages.custodyKindLeftWithNeighbour,
  collected: messages.custodyKindCollected,
  dropped_off: messages.custodyKindDroppedOff,
  lost: messages.custodyKindLost,
};

/** Enough of a row's hash to compare it with `npm run custody:verify`'s output at a glance. */
const HASH_SHOWN = 10;

/**
 * The back office's view of the parcel's chain of custody (issue 14, docs/decisions/0022): every
 * change of hands in order, and whether the hash chain still verifies.
 */
export function CustodyChain({ parcelId }: { parcelId: string }) {
  const chain = useCustodyChain(parcelId);
  return (
    <section className="card timeline" aria-labelledby="custody-chain-title">
      <h2 id="custody-chain-title">{messages.custodyChainTitle}</h2>
      <QueryState query={chain}>
        {({ events, firstBadSeq }) => (
          <>
            {firstBadSeq === null ? (
              <p className="muted">{messages.custodyChainVerified}</p>
            ) : (
              <p className="form-error" role="alert">
                {/* Numbered as the list shows it (seq counts from 0). */}
                {messages.custodyChainBroken(String(firstBadSeq + 1))}
              </p>
            )}
            <ol aria-label={messages.custodyChainLabel}>
              {events.map((event) => (
                <li key={event.seq}>
                  <time dateTime={event.at}>{formatTimestamp(event.at)}</time> <strong>{kindLabels[event.kind]}</strong>
                  : {messages.custodyStep(party(event.from), party(event.to))}
                  {firstBadSeq !== null && event.seq >= firstBadSeq && (
                    <strong className="field-error"> {messages.custodyEventUnverified}</strong>
                  )}
                  <br />
                  <span className="muted">
                    {messages.custodyHow(howLabels[event.how])}
                    {event.place &&
                      ` · ${messages.custodyPlace(event.place.lat.toFixed(5), event.place.lng.toFixed(5))}`}
                    {event.reason && ` · ${messages.custodyReason(event.reason)}`} ·{' '}
                    <abbr className="mono" title={event.hash}>
                      {messages.custodyHash(event.hash.slice(0, HASH_SHOWN))}
                    </abbr>
                  </span>
                </li>
              ))}
            </ol>
          </>
        )}
      </QueryState>
    </section>
  );
}
