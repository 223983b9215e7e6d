import { useLiveRefetch } from '../../api/live.ts';
import { incomingParcelsKey, sentParcelsKey } from '../../api/parcel-lists.ts';

/** A user's lists follow every change to parcels they sent or that come to their address. */
export const useSenderLiveLists = () => useLiveRefetch(['me'], [sentParcelsKey, incomingParcelsKey]);
