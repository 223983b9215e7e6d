import type { AdminParcel } from '@csomag/domain/admin';
import { messages } from '@csomag/domain/messages';
import { PARCEL_STATES, type ParcelState, parcelStateLabels } from '@csomag/domain/parcel-states';
import { paths } from '@csomag/domain/paths';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { Link } from '../../lib/router.tsx';
import { useAdminLive, useAdminParcels, useHandOver } from './api.ts';
import { useParcelFilters } from './parcel-filters.ts';

function ParcelActions({ parcel }: { parcel: AdminParcel }) {
  const handOver = useHandOver();
  return (
    <>
      {parcel.multiLeg && (
        <p>
          <span className="status status-multi-leg">{messages.multiLegBadge}</span>
        </p>
      )}
      <div className="card-actions">
        <Link className="button" to={paths.adminEditParcel(parcel.id)}>
          {messages.adminEdit}
        </Link>
        <Link className="button danger" to={paths.adminDeleteParcel(parcel.id)}>
          {messages.adminDelete}
        </Link>
        {parcel.status === 'in_transit' && (
          <button
            type="button"
            className="button primary"
            disabled={handOver.isPending}
            onClick={() => handOver.mutate(parcel.id)}
          >
            {messages.adminHandOver}
          </button>
        )}
      </div>
    </>
  );
}

/** SPEC §2.8 'Csomaglistázás': filtered (the filters kept in the address) and paged on the server, live. */
export function AdminParcelsPage() {
  const { filters, status, setStatus, runner, setRunner, sender, setSender, multiLeg, setMultiLeg } =
    useParcelFilters();
  const query = useAdminParcels(filters);
  useAdminLive();
  return (
    <section className="page">
      <div className="page-head">
        <h1>{messages.adminParcelsTitle}</h1>
        <Link className="button primary" to={paths.adminCreateParcel}>
          {messages.adminNewParcel}
        </Link>
      </div>
      <div className="filters">
        <div className="field">
          <label htmlFor="filter-status">{messages.statusLabel}</label>
          <select id="filter-status" value={status} onChange={(event) => setStatus(event.target.value as ParcelState)}>
            <option value="">{messages.allStatuses}</option>
            {PARCEL_STATES.map((value) => (
              <option key={value} value={value}>
                {parcelStateLabels[value]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-runner">{messages.runnerLabel}</label>
          <input id="filter-runner" value={runner} onChange={(event) => setRunner(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="filter-sender">{messages.senderLabel}</label>
          <input id="filter-sender" value={sender} onChange={(event) => setSender(event.target.value)} />
        </div>
        <label className="field inline" title={messages.multiLegFilterHint}>
          <input type="checkbox" checked={multiLeg} onChange={(event) => setMultiLeg(event.target.checked)} />
          {messages.multiLegFilter}
        </label>
      </div>
      <ParcelListView
        query={query}
        empty={messages.adminParcelsEmpty}
        showPeople
        renderActions={(parcel) => <ParcelActions parcel={parcel} />}
      />
    </section>
  );
}
