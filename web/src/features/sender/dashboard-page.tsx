import { DASHBOARD_PREVIEW_LIMIT } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { Link } from '../../lib/router.tsx';
import { useIsDesktop } from '../../lib/use-window-width.ts';
import { useIncomingParcels, useSenderLiveLists, useSentParcels } from './api.ts';

function IncomingPreview() {
  const query = useIncomingParcels(DASHBOARD_PREVIEW_LIMIT);
  return (
    <section className="preview" aria-labelledby="incoming-title">
      <h2 id="incoming-title">{messages.incomingParcelsTitle}</h2>
      <ParcelListView query={query} paged={false} empty={messages.incomingEmpty} />
      <Link to={paths.incomingParcels}>{messages.allIncomingParcels}</Link>
    </section>
  );
}

function SentPreview() {
  const query = useSentParcels(undefined, DASHBOARD_PREVIEW_LIMIT);
  return (
    <section className="preview" aria-labelledby="sent-title">
      <h2 id="sent-title">{messages.sentParcelsTitle}</h2>
      <ParcelListView query={query} paged={false} empty={messages.sentEmpty} />
      <Link to={paths.sentParcels}>{messages.allSentParcels}</Link>
    </section>
  );
}

function UsefulInfo() {
  return (
    <section className="preview" aria-labelledby="info-title">
      <h2 id="info-title">{messages.usefulInfoTitle}</h2>
      <ul>
        <li>{messages.senderTipShareId}</li>
        <li>{messages.senderTipAddress}</li>
        <li>{messages.senderTipDelivery}</li>
      </ul>
      <Link className="button primary" to={paths.sendParcel}>
        {messages.sendParcelLink}
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
      <h1>{messages.senderDashboardTitle}</h1>
      {isDesktop ? (
        <div className="dashboard-columns">
          <IncomingPreview />
          <SentPreview />
        </div>
      ) : (
        <Tabs
          label={messages.senderDashboardTitle}
          tabs={[
            { id: 'incoming', label: messages.incomingTab, content: <IncomingPreview /> },
            { id: 'sent', label: messages.sentTab, content: <SentPreview /> },
            { id: 'info', label: messages.usefulInfoTitle, content: <UsefulInfo /> },
          ]}
        />
      )}
    </section>
  );
}
