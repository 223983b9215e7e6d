import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import { useState } from 'react';
import { RatingForm } from './rating-form.tsx';

/**
 * On a delivered parcel's card (the sender's and the receiver's lists): rating its runner. The
 * form, and its request, only once asked for, so a long list costs no request per card.
 */
export function RateParcel({ parcel, label = messages.ratingOpenRunner }: { parcel: Parcel; label?: string }) {
  const [open, setOpen] = useState(false);
  if (parcel.status !== 'delivered') return null;
  if (open) return <RatingForm parcelId={parcel.id} onClose={() => setOpen(false)} />;
  return (
    <div className="card-actions">
      <button type="button" className="button" onClick={() => setOpen(true)}>
        {label}
      </button>
    </div>
  );
}
