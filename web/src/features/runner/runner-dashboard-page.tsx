import { paths } from '@csomag/domain/paths';
import { Link } from 'react-router';
import { Tabs } from '../../components/tabs.tsx';
import { useRunnerLiveLists } from './api.ts';
import { InProgressList } from './in-progress-page.tsx';
import { WaitingParcelsList } from './waiting-parcels-page.tsx';

// Placeholders until the community has its own support line (SPEC §2.7).
const support = { email: 'segitseg@csomagkuldo.hu', phone: '+36 1 234 5678', office: '1051 Budapest, Példa utca 1.' };

function RunnerInfo() {
  return (
    <section aria-labelledby="runner-info-title">
      <h2 id="runner-info-title">Hasznos tudnivalók</h2>
      <ul>
        <li>Csak annyi csomagot vegyél fel, amennyit kényelmesen el tudsz vinni.</li>
        <li>A csomagot a címtől 15 méteren belül adhatod le, vagy a címzett QR kóddal veheti át.</li>
        <li>Amíg csomag van nálad, a helyzeted a csomag követési oldalán látszik.</li>
      </ul>
      <address className="card contact">
        <strong>Kapcsolat</strong>
        <br />
        Email: <a href={`mailto:${support.email}`}>{support.email}</a>
        <br />
        Telefon: <a href={`tel:${support.phone.replaceAll(' ', '')}`}>{support.phone}</a>
        <br />
        Központ: {support.office}
      </address>
    </section>
  );
}

/** SPEC §2.7: three tabs — in delivery, waiting for pickup, useful info. Live. */
export function RunnerDashboardPage() {
  useRunnerLiveLists();
  return (
    <section className="page">
      <h1>Futár áttekintés</h1>
      <Tabs
        label="Futár áttekintés"
        tabs={[
          {
            id: 'delivering',
            label: 'Szállítás alatt',
            content: (
              <>
                <InProgressList />
                <Link to={paths.inProgressParcels}>Folyamatban lévő csomagok</Link>
              </>
            ),
          },
          { id: 'waiting', label: 'Felvételre vár', content: <WaitingParcelsList /> },
          { id: 'info', label: 'Hasznos tudnivalók', content: <RunnerInfo /> },
        ]}
      />
    </section>
  );
}
