import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { DeliveredParcel } from '@csomag/domain/ratings';
import { useState } from 'react';
import { useDeliveredParcels } from '../../api/ratings.ts';
import { QueryState } from '../query-state.tsx';
import { RatingForm } from './rating-form.tsx';

function DeliveredCard({ parcel }: { parcel: DeliveredParcel }) {
  const [open, setOpen] = useState(false);
  return (
    <article className="card parcel-card" aria-label={messages.parcelCardLabel(parcel.id)}>
      <header>
        <span className="mono">{parcel.id}</span>
        <span className="muted">{formatTimestamp(parcel.deliveredAt)}</span>
      </header>
      <p>
        <strong>{parcel.category}</strong> · {parcel.senderUser}
      </p>
      {open ? (
        <RatingForm parcelId={parcel.id} onClose={() => setOpen(false)} />
      ) : (
        <div className="card-actions">
          <button type="button" className="button" onClick={() => setOpen(true)}>
            {parcel.myStars === null ? messages.ratingOpenSender : messages.ratingOpenEdit(parcel.myStars)}
          </button>
        </div>
      )}
    </article>
  );
}

/** The runner's deliveries of the last days, where they rate each parcel's sender (issue 15). */
export function DeliveredToRate() {
  const query = useDeliveredParcels();
  return (
    <section aria-labelledby="delivered-to-rate-title">
      <h2 id="delivered-to-rate-title">{messages.deliveredToRateTitle}</h2>
      <p className="muted">{messages.deliveredToRateHint}</p>
      <QueryState query={query} empty={messages.deliveredToRateEmpty} isEmpty={(data) => data.items.length === 0}>
        {(data) => (
          <ul className="parcel-list">
            {data.items.map((parcel) => (
              <li key={parcel.id}>
                <DeliveredCard parcel={parcel} />
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
