import { formatAge, formatDistance } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { isDoorKnown, type PointPrecision } from '@csomag/domain/parcel-states';
import { type ReactNode, useState } from 'react';
import { useRunnerLiveLists } from '../../api/runner-live.ts';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { PickUpButton } from '../../components/pick-up-button.tsx';
import { useWatchedPosition } from '../../lib/geolocation.ts';
import { useDebounced } from '../../lib/use-debounced.ts';
import { useWaitingParcels } from './api.ts';
import { DropPointReturns } from './drop-point-returns.tsx';

type WaitingOrder = 'nearest' | 'oldest';

/*
 * Three decimals (~100 m) of the position go to the server: a walking runner's every new fix
 * would otherwise refetch the list and start its paging over.
 */
const nearParam = ({ lat, lng }: { lat: number; lng: number }) => `${lat.toFixed(3)},${lng.toFixed(3)}`;

/** How far the pickup is: approximate ('~3,1 km (a cím pontatlan)') when its door is not known. */
const pickupDistance = (metres: number, precision: PointPrecision | null) =>
  isDoorKnown(precision) ? formatDistance(metres) : messages.approximateDistance(formatDistance(metres));

/**
 * `relayOffers`: other runners' relay offers ('Továbbadás'), shown above the pool; put there by
 * app/runner-screens.tsx (features do not import each other).
 */
export function WaitingParcelsList({ relayOffers }: { relayOffers: ReactNode }) {
  const { position } = useWatchedPosition();
  // null until the runner chooses: nearest first once the position is known, the longest waiting before.
  const [chosenOrder, setChosenOrder] = useState<WaitingOrder | null>(null);
  const [settlement, setSettlement] = useState('');
  const settlementFilter = useDebounced(settlement.trim(), 300);
  const order = chosenOrder ?? (position ? 'nearest' : 'oldest');
  const near = order === 'nearest' && position ? nearParam(position) : undefined;
  const query = useWaitingParcels({ near, settlement: settlementFilter || undefined });
  return (
    <>
      <div className="field inline">
        <label htmlFor="waiting-order">{messages.waitingSortLabel}</label>
        <select
          id="waiting-order"
          value={order}
          onChange={(event) => setChosenOrder(event.target.value as WaitingOrder)}
        >
          <option value="nearest" disabled={!position}>
            {messages.waitingSortNearest}
          </option>
          <option value="oldest">{messages.waitingSortOldest}</option>
        </select>
      </div>
      <div className="field inline">
        <label htmlFor="waiting-settlement">{messages.waitingSettlementLabel}</label>
        <input
          id="waiting-settlement"
          type="search"
          value={settlement}
          onChange={(event) => setSettlement(event.target.value)}
        />
      </div>
      {!position && <p className="muted">{messages.waitingPositionPending}</p>}
      <DropPointReturns />
      {relayOffers}
      <ParcelListView
        query={query}
        empty={settlementFilter ? messages.waitingEmptyInSettlement : messages.waitingEmpty}
        showPrecision
        renderActions={(parcel) => (
          <div className="card-actions">
            {parcel.distanceMetres !== undefined && (
              <strong className="distance">{pickupDistance(parcel.distanceMetres, parcel.senderPrecision)}</strong>
            )}
            <span className="muted">{messages.waitingFor(formatAge(parcel.createdAt))}</span>
            <PickUpButton parcelId={parcel.id} />
          </div>
        )}
      />
    </>
  );
}

export function WaitingParcelsPage({ relayOffers }: { relayOffers: ReactNode }) {
  useRunnerLiveLists();
  return (
    <section className="page">
      <h1>{messages.waitingParcelsTitle}</h1>
      <WaitingParcelsList relayOffers={relayOffers} />
    </section>
  );
}
