import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { HandoverConfirmer, ParcelDetail } from '@csomag/domain/parcel';
import { useId } from 'react';
import { eventLabel } from '../../components/event-label.ts';

/**
 * Who confirmed a QR hand-over (issue 27): the account signed in on that phone, else the link's
 * holder; the name they typed and whether they signed either way.
 */
export function confirmerText({ account, name, signed }: HandoverConfirmer): string {
  return [
    account ? messages.handoverConfirmedByAccount(account) : messages.handoverConfirmedByLinkHolder,
    name ? messages.handoverConfirmerName(name) : messages.handoverConfirmerNoName,
    signed ? messages.handoverConfirmerSigned : messages.handoverConfirmerNotSigned,
  ].join(', ');
}

/** A parcel's whole timeline with who did each step, as the back office reads it (edit page, reports). */
export function ParcelTimeline({ title, events }: { title: string; events: ParcelDetail['events'] }) {
  const titleId = useId();
  return (
    <section className="card timeline" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <ol>
        {events.map((event, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the timeline only ever grows at its end
          <li key={index}>
            <time dateTime={event.at}>{formatTimestamp(event.at)}</time> {eventLabel(event)}
            {event.actor && <span className="muted"> ({event.actor})</span>}
            {event.confirmedBy && (
              <>
                <br />
                <span className="muted" data-testid="handover-confirmer">
                  {confirmerText(event.confirmedBy)}
                </span>
              </>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
