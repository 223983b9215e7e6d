import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { OutboxActionKind } from '@csomag/domain/outbox';
import { useSyncExternalStore } from 'react';
import { getConnection, subscribeConnection } from './connection.ts';
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

/**
 * Above every page: the offline banner (since when the data shown is) and the actions waiting to
 * be sent, each with the time it was made (src/offline/outbox.ts sends them).
 */
export default function OfflineStatus() {
  const connection = useSyncExternalStore(subscribeConnection, getConnection, getConnection);
  // Position batches go along unseen: the list is what the person did.
  const pending = usePendingActions().filter((action) => action.kind !== 'location');
  return (
    <>
      {!connection.online && (
        <p className="offline-banner" role="status">
          {connection.lastAnswerAt === undefined
            ? messages.offlineNoData
            : messages.offlineSince(formatTimestamp(new Date(connection.lastAnswerAt)))}
        </p>
      )}
      {pending.length > 0 && (
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
      )}
    </>
  );
}
