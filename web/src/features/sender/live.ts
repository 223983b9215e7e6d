import { useLiveRefetch } from '../../api/live.ts';
import { incomingParcelsKey, sentParcelsKey } from '../../api/parcel-lists.ts';
import { useSession } from '../../api/session.ts';

/**
 * A user's lists follow every change to parcels they sent or that come to their address; the
 * server matches the address the stream opened with, so a new address reopens it.
 */
export function useSenderLiveLists() {
  const { data: account } = useSession();
  useLiveRefetch(['me'], [sentParcelsKey, incomingParcelsKey], Boolean(account), account?.address ?? '');
}
