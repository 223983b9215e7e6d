import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import { isFinal, PARCEL_STATES, type ParcelState, parcelStateLabels } from '@csomag/domain/parcel-states';
import { paths } from '@csomag/domain/paths';
import { useState } from 'react';
import { AttemptsSection } from '../../components/attempts-section.tsx';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { ProofSection } from '../../components/proof/proof-section.tsx';
import { RateParcel } from '../../components/ratings/rate-parcel.tsx';
import { ReportNotReceived } from '../../components/report-not-received.tsx';
import { Link } from '../../lib/router.tsx';
import { useCancelParcel, useSenderLiveLists, useSentParcels } from './api.ts';
import { ShareTrackingLink } from './share-tracking-link.tsx';

/** Withdraws a parcel nobody has picked up yet, after a second tap that says what it does. */
function CancelParcel({ parcel }: { parcel: Parcel }) {
  const cancel = useCancelParcel();
  const [asking, setAsking] = useState(false);
  if (parcel.status === 'delivered') return <ReportNotReceived parcel={parcel} />;
  if (parcel.status !== 'waiting') return null;
  return asking ? (
    <div className="card-actions">
      <button
        type="button"
        className="button danger"
        disabled={cancel.isPending}
        onClick={() => cancel.mutate(parcel.id)}
      >
        {messages.confirmCancelParcel}
      </button>
      <button type="button" className="button" onClick={() => setAsking(false)}>
        {messages.cancelButton}
      </button>
    </div>
  ) : (
    <div className="card-actions">
      <button type="button" className="button" onClick={() => setAsking(true)}>
        {messages.cancelParcel}
      </button>
    </div>
  );
}

export function SentParcelsPage() {
  const [status, setStatus] = useState<ParcelState | ''>('');
  const query = useSentParcels(status || undefined);
  useSenderLiveLists();
  return (
    <section className="page">
      <div className="page-head">
        <h1>{messages.sentParcelsTitle}</h1>
        <Link className="button primary" to={paths.sendParcel}>
          {messages.newParcelLink}
        </Link>
      </div>
      <div className="field inline">
        <label htmlFor="status-filter">{messages.statusLabel}</label>
        <select
          id="status-filter"
          value={status}
          onChange={(event) => setStatus(event.target.value as ParcelState | '')}
        >
          <option value="">{messages.allStatuses}</option>
          {PARCEL_STATES.map((value) => (
            <option key={value} value={value}>
              {parcelStateLabels[value]}
            </option>
          ))}
        </select>
      </div>
      <ParcelListView
        query={query}
        empty={status ? messages.sentEmptyWithStatus : messages.sentEmpty}
        renderActions={(parcel) => (
          <>
            {!isFinal(parcel.status) && <ShareTrackingLink parcelId={parcel.id} />}
            <CancelParcel parcel={parcel} />
            <AttemptsSection parcel={parcel} />
            <ProofSection parcel={parcel} />
            <RateParcel parcel={parcel} />
          </>
        )}
      />
    </section>
  );
}
