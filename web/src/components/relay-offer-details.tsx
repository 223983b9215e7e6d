import { budapestClock, budapestDay, formatWeight } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { ReverseGeocodeResponse } from '@csomag/domain/places';
import type { RelayOffer } from '@csomag/domain/relay';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { reverseGeocodeQuery } from '../api/geocode.ts';
import { nearestPlaceName } from './place-precision.tsx';

/*
 * How a relay offer reads ('Továbbadás', issue 14), wherever it is shown: the carrier's card, the
 * waiting list and map, a trip's matches and its map.
 */

/** 'HH:MM' in Budapest; 'holnap HH:MM' for tomorrow's. */
export function offerClock(at: string): string {
  const time = budapestClock(at);
  return budapestDay(Date.parse(at)) > budapestDay(Date.now()) ? messages.relayOfferTomorrow(time) : time;
}

type OfferPlace = Pick<RelayOffer, 'place' | 'placeLabel'>;

/**
 * The meeting point as a runner reads it: the label its runner gave it, else the nearest place the
 * server knows (`near`), else — while that is asked, or when nothing is known near — the point itself.
 */
export const offerPlace = (offer: OfferPlace, near?: ReverseGeocodeResponse) =>
  offer.placeLabel ||
  (near
    ? nearestPlaceName(near)
    : messages.relayOfferPlaceUnnamed(offer.place.lat.toFixed(5), offer.place.lng.toFixed(5)));

/** offerPlace, the unnamed place named by GET /api/geocode/reverse (each point asked once, then kept). */
export function useOfferPlace(offer: OfferPlace): string {
  const near = useQuery(reverseGeocodeQuery(offer.placeLabel ? null : offer.place));
  return offerPlace(offer, near.data);
}

/**
 * useOfferPlace for a list (a map's pins), as one query over the points each asked and kept as
 * useOfferPlace keeps them (not useQueries: its share of the query library would land in the
 * landing page's download).
 */
export function useOfferPlaces(offers: OfferPlace[]): string[] {
  const queryClient = useQueryClient();
  const unnamed = offers.filter((offer) => !offer.placeLabel).map((offer) => offer.place);
  const { data: near } = useQuery({
    queryKey: ['reverse-geocode', 'points', unnamed],
    queryFn: () =>
      Promise.all(unnamed.map((point) => queryClient.fetchQuery(reverseGeocodeQuery(point)).catch(() => undefined))),
    enabled: unnamed.length > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
  let index = 0;
  return offers.map((offer) => (offer.placeLabel ? offer.placeLabel : offerPlace(offer, near?.[index++])));
}

/** An offer's parcel, place, window and offering runner, as every list of offers shows them. */
export function OfferDetails({ offer }: { offer: RelayOffer }) {
  const place = useOfferPlace(offer);
  return (
    <>
      <p>
        <strong>{offer.category}</strong> · {formatWeight(offer.weightGrams)}
      </p>
      <p>{messages.relayOfferPlace(place)}</p>
      <p>{messages.relayOfferWindow(offerClock(offer.from), offerClock(offer.until))}</p>
      <p className="muted">{messages.relayOfferBy(offer.runner)}</p>
    </>
  );
}
