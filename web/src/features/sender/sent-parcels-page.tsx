import { PARCEL_STATUSES, type Parcel, type ParcelStatus, parcelStatusLabels } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { useState } from 'react';
import { Link } from 'react-router';
import { useSentParcels } from '../../api/parcel-lists.ts';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { useCancelParcel } from './api.ts';
import { useSenderLiveLists } from './live.ts';

/** Withdraws a parcel nobody has picked up yet, after a second tap that says what it does. */
function CancelParcel({ parcel }: { parcel: Parcel }) {
  const cancel = useCancelParcel();
  const [asking, setAsking] = useState(false);
  if (parcel.status !== 'waiting') return null;
  return asking ? (
    <div className="card-actions">
      <button
        type="button"
        className="button danger"
        disabled={cancel.isPending}
        onClick={() => cancel.mutate(parcel.id)}
      >
        Igen, visszavonom
      </button>
      <button type="button" className="button" onClick={() => setAsking(false)}>
        Mégsem
      </button>
    </div>
  ) : (
    <div className="card-actions">
      <button type="button" className="button" onClick={() => setAsking(true)}>
        Feladás visszavonása
      </button>
    </div>
  );
}

export function SentParcelsPage() {
  const [status, setStatus] = useState<ParcelStatus | ''>('');
  const query = useSentParcels(status || undefined);
  useSenderLiveLists();
  return (
    <section className="page">
      <div className="page-head">
        <h1>Feladott csomagok</h1>
        <Link className="button primary" to={paths.sendParcel}>
          Új csomag feladása
        </Link>
      </div>
      <div className="field inline">
        <label htmlFor="status-filter">Státusz</label>
        <select
          id="status-filter"
          value={status}
          onChange={(event) => setStatus(event.target.value as ParcelStatus | '')}
        >
          <option value="">Összes</option>
          {PARCEL_STATUSES.map((value) => (
            <option key={value} value={value}>
              {parcelStatusLabels[value]}
            </option>
          ))}
        </select>
      </div>
      <ParcelListView
        query={query}
        empty={status ? 'Nincs ilyen státuszú feladott csomagod.' : 'Még nem adtál fel csomagot.'}
        renderActions={(parcel) => <CancelParcel parcel={parcel} />}
      />
    </section>
  );
}
