import { RelayHandOff } from '../features/relay/relay-hand-off.tsx';
import { RelayOfferAction } from '../features/relay/relay-offer-form.tsx';
import { RelayOfferSection, useRelayOfferMarkers } from '../features/relay/relay-offer-list.tsx';
import { InProgressPage as InProgress } from '../features/runner/in-progress-page.tsx';
import { RunnerDashboardPage as Dashboard } from '../features/runner/runner-dashboard-page.tsx';
import { RunnerMapPage as RunnerMap } from '../features/runner/runner-map-page.tsx';
import { WaitingParcelsPage as Waiting } from '../features/runner/waiting-parcels-page.tsx';

/*
 * The runner's screens with the relay's parts in them (issue 14). Features do not import each
 * other (docs/ARCHITECTURE.md): the runner's lists and map take the relay's parts here.
 */

/** On each carried parcel's card: 'Átadás másik futárnak' now, or 'Továbbadnám' for later. */
const relayActions = (parcelId: string) => (
  <>
    <RelayHandOff parcelId={parcelId} />
    <RelayOfferAction parcelId={parcelId} />
  </>
);

export const RunnerDashboardPage = () => <Dashboard relayActions={relayActions} relayOffers={<RelayOfferSection />} />;

export const WaitingParcelsPage = () => <Waiting relayOffers={<RelayOfferSection />} />;

export const InProgressPage = () => <InProgress relayActions={relayActions} />;

export const RunnerMapPage = () => <RunnerMap relayMarkers={useRelayOfferMarkers()} />;
