import { DASHBOARD_PREVIEW_LIMIT } from '@csomag/domain/constants';
import { paths } from '@csomag/domain/paths';
import { Link } from 'react-router';
import { useIncomingParcels, useSentParcels } from '../../api/parcel-lists.ts';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { useIsDesktop } from '../../lib/use-window-width.ts';
import { useSenderLiveLists } from './live.ts';

function IncomingPreview() {
  const query = useIncomingParcels(DASHBOARD_PREVIEW_LIMIT);
  return (
    <section className="preview" aria-labelledby="incoming-title">
      <h2 id="incoming-title">Nekem címzett csomagok</h2>
      <ParcelListView query={query} paged={false} empty="Nincs hozzád címzett csomag." />
      <Link to={paths.incomingParcels}>Összes nekem címzett csomag</Link>
    </section>
  );
}

function SentPreview() {
  const query = useSentParcels(undefined, DASHBOARD_PREVIEW_LIMIT);
  return (
    <section className="preview" aria-labelledby="sent-title">
      <h2 id="sent-title">Feladott csomagok</h2>
      <ParcelListView query={query} paged={false} empty="Még nem adtál fel csomagot." />
      <Link to={paths.sentParcels}>Összes feladott csomag</Link>
    </section>
  );
}

function UsefulInfo() {
  return (
    <section className="preview" aria-labelledby="info-title">
      <h2 id="info-title">Hasznos tudnivalók</h2>
      <ul>
        <li>A csomagazonosítót küldd el a címzettnek: azzal ő is követheti a csomagot.</li>
        <li>A címzett akkor látja a csomagot a saját listájában, ha a profiljában ugyanez a cím szerepel.</li>
        <li>A futár a címtől 15 méteren belül, vagy a címzett által beolvasott QR kóddal adja le a csomagot.</li>
      </ul>
      <Link className="button primary" to={paths.sendParcel}>
        Csomag feladása
      </Link>
    </section>
  );
}

/** SPEC §2.6: side by side from 1024 px, tabs below; previews show at most 4 parcels. */
export function UserDashboardPage() {
  const isDesktop = useIsDesktop();
  useSenderLiveLists();
  return (
    <section className="page">
      <h1>Áttekintés</h1>
      {isDesktop ? (
        <div className="dashboard-columns">
          <IncomingPreview />
          <SentPreview />
        </div>
      ) : (
        <Tabs
          label="Áttekintés"
          tabs={[
            { id: 'incoming', label: 'Nekem címzett', content: <IncomingPreview /> },
            { id: 'sent', label: 'Feladott', content: <SentPreview /> },
            { id: 'info', label: 'Hasznos tudnivalók', content: <UsefulInfo /> },
          ]}
        />
      )}
    </section>
  );
}
