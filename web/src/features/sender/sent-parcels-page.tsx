import { PARCEL_STATUSES, type ParcelStatus, parcelStatusLabels } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { useState } from 'react';
import { Link } from 'react-router';
import { useSentParcels } from '../../api/parcel-lists.ts';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { useSenderLiveLists } from './live.ts';

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
      />
    </section>
  );
}
