import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { OutboxActionKind } from '@csomag/domain/outbox';
import { type QueuedAction, usePendingActions } from './outbox.ts';

const LABEL: Record<Exclude<OutboxActionKind, 'location'>, string> = {
  pickUp: messages.pendingPickUp,
  deliver: messages.pendingDeliver,
  handover: messages.pendingHandover,
  createParcel: messages.pendingCreateParcel,
  attempt: messages.pendingAttempt,
  pinHandover: messages.pendingPinHandover,
};

function label(action: QueuedAction): string {
  const text = action.kind === 'location' ? '' : LABEL[action.kind];
  const parcelId = /^\/parcels\/([^/]+)\//.exec(action.path)?.[1];
  return parcelId ? `${text} · ${decodeURIComponent(parcelId)}` : text;
}

/** Above every page of a signed-in person: the actions waiting to be sent, each with when it was made. */
export default function PendingActions() {
  // Position batches go along unseen: the list is what the person did.
  const pending = usePendingActions().filter((action) => action.kind !== 'location');
  if (pending.length === 0) return null;
  return (
    <section className="pending-actions" aria-live="polite" data-testid="pending-actions">
      <p>
        <strong>{messages.pendingActions(pending.length)}</strong> {messages.pendingActionsHint}
      </p>
      <ul>
        {pending.map((action) => (
          <li key={action.key}>
            {label(action)} —{' '}
            <time dateTime={action.madeAt}>{messages.pendingMadeAt(formatTimestamp(action.madeAt))}</time>
          </li>
        ))}
      </ul>
    </section>
  );
}
