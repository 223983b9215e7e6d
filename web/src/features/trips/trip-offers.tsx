import { formatWeight } from '@csomag/domain/format';
import { type LiveChange, TRIP_OFFER_KIND } from '@csomag/domain/live';
import { messages } from '@csomag/domain/messages';
import type { TripMatch } from '@csomag/domain/trip-api';
import { useLiveChanges } from '../../api/live.ts';
import { PickUpButton } from '../../components/pick-up-button.tsx';
import { notify } from '../../lib/notify.ts';
import { fetchOfferedParcel } from './api.ts';

function OfferToast({
  parcelId,
  parcel,
  addedMinutes,
}: {
  parcelId: string;
  parcel: TripMatch | null;
  addedMinutes: number | undefined;
}) {
  return (
    <div className="trip-offer">
      <strong>{messages.tripOfferTitle}</strong>
      {parcel ? (
        <>
          <p>
            {parcel.category} · {formatWeight(parcel.weightGrams)} · {messages.tripAddedMinutes(parcel.addedMinutes)}
          </p>
          <p>{messages.tripOfferRoute(parcel.senderAddress, parcel.receiverAddress)}</p>
        </>
      ) : (
        <p>
          {messages.tripOfferParcel(parcelId)}
          {addedMinutes !== undefined && <> · {messages.tripAddedMinutes(addedMinutes)}</>}
        </p>
      )}
      <PickUpButton parcelId={parcelId} />
    </div>
  );
}

/** Tells one offer: the parcel looked up, then a toast with it and 'Csomag felvétele' (until acted on). */
async function showOffer(change: LiveChange) {
  let parcel: TripMatch | null = null;
  try {
    parcel = await fetchOfferedParcel(change.parcelId, change.tripId);
  } catch {
    // Not told in full (the connection dropped): the offer still shows, by the parcel's id.
  }
  notify.custom(
    <OfferToast parcelId={change.parcelId} parcel={parcel} addedMinutes={change.addedMinutes} />,
    `trip-offer-${change.parcelId}`,
  );
}

/**
 * A saved trip's live offers (issue 13): while it is active, a new parcel that fits it arrives on
 * the runner's `me` stream as a 'trip_offer' change. Mounted by the layout for every runner page.
 */
export function TripOffers() {
  useLiveChanges(['me'], (change) => {
    if (change?.kind === TRIP_OFFER_KIND) void showOffer(change);
  });
  return null;
}
