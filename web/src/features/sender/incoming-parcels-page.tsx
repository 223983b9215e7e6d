import { useIncomingParcels } from '../../api/parcel-lists.ts';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { useSenderLiveLists } from './live.ts';

/** Parcels whose destination is the address in my profile (compared after normalising it). */
export function IncomingParcelsPage() {
  const query = useIncomingParcels();
  useSenderLiveLists();
  return (
    <section className="page">
      <h1>Nekem címzett csomagok</h1>
      <ParcelListView query={query} empty="Nincs hozzád címzett csomag." />
    </section>
  );
}
