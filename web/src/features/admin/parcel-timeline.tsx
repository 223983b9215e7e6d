import { formatTimestamp } from '@csomag/domain/format';
import type { ParcelDetail } from '@csomag/domain/parcel';
import { useId } from 'react';
import { eventLabel } from '../../components/event-label.ts';

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
          </li>
        ))}
      </ol>
    </section>
  );
}
