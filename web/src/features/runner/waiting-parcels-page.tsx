import { formatAge } from '@csomag/domain/format';
import { useInfiniteQuery } from '@tanstack/react-query';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { useRunnerLiveLists, waitingParcelsQuery } from './api.ts';
import { PickUpButton } from './pick-up-button.tsx';

export function WaitingParcelsList() {
  const query = useInfiniteQuery(waitingParcelsQuery());
  return (
    <ParcelListView
      query={query}
      empty="Most nincs futárra váró csomag."
      renderActions={(parcel) => (
        <div className="card-actions">
          <span className="muted">Vár: {formatAge(parcel.createdAt)}</span>
          <PickUpButton parcelId={parcel.id} />
        </div>
      )}
    />
  );
}

export function WaitingParcelsPage() {
  useRunnerLiveLists();
  return (
    <section className="page">
      <h1>Futárra váró csomagok</h1>
      <WaitingParcelsList />
    </section>
  );
}
