import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import type { ReactNode } from 'react';
import { useRunnerLiveLists } from '../../api/runner-live.ts';
import { DeliveredToRate } from '../../components/ratings/delivered-to-rate.tsx';
import { RunnerStandingNotice } from '../../components/runner-standing-notice.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { Link } from '../../lib/router.tsx';
import { useHandedOn } from './handed-on.tsx';
import { InProgressList, type RelayActions } from './in-progress-page.tsx';
import { WaitingParcelsList } from './waiting-parcels-page.tsx';

function RunnerInfo() {
  return (
    <section aria-labelledby="runner-info-title">
      <h2 id="runner-info-title">{messages.usefulInfoTitle}</h2>
      <ul>
        <li>{messages.runnerTipCapacity}</li>
        <li>{messages.runnerTipDelivery}</li>
        <li>{messages.runnerTipPosition}</li>
      </ul>
      <address className="card contact">
        <strong>{messages.supportTitle}</strong>
        <br />
        {messages.supportEmailLabel} <a href={`mailto:${messages.supportEmail}`}>{messages.supportEmail}</a>
        <br />
        {messages.supportPhoneLabel}{' '}
        <a href={`tel:${messages.supportPhone.replaceAll(' ', '')}`}>{messages.supportPhone}</a>
        <br />
        {messages.supportOfficeLabel} {messages.supportOffice}
      </address>
    </section>
  );
}

/**
 * SPEC §2.7: three tabs — in delivery, waiting for pickup, useful info. Live. The relay's parts
 * come from app/runner-screens.tsx, as on the lists' own pages.
 */
export function RunnerDashboardPage({
  relayActions,
  relayOffers,
}: {
  relayActions: RelayActions;
  relayOffers: ReactNode;
}) {
  const handedOn = useHandedOn();
  useRunnerLiveLists(handedOn.heard);
  return (
    <section className="page">
      <h1>{messages.runnerDashboardTitle}</h1>
      <RunnerStandingNotice />
      {handedOn.notice}
      <p>
        <Link to={paths.runnerTrip}>{messages.tripDashboardLink}</Link>
      </p>
      <Tabs
        label={messages.runnerDashboardTitle}
        tabs={[
          {
            id: 'delivering',
            label: messages.deliveringTab,
            content: (
              <>
                <InProgressList relayActions={relayActions} />
                <Link to={paths.inProgressParcels}>{messages.inProgressTitle}</Link>
                <DeliveredToRate />
              </>
            ),
          },
          { id: 'waiting', label: messages.waitingTab, content: <WaitingParcelsList relayOffers={relayOffers} /> },
          { id: 'info', label: messages.usefulInfoTitle, content: <RunnerInfo /> },
        ]}
      />
    </section>
  );
}
