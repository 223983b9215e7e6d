import type { LiveChange } from '@csomag/domain/live';
import { messages } from '@csomag/domain/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { trackingQueryOptions } from '../../api/tracking.ts';
import { useAssignedParcels } from './api.ts';

interface HandedOn {
  parcelId: string;
  runner: string;
}

/**
 * Issue 27 item 4: when the next runner takes over a parcel this runner carried (its card leaves
 * the list live), the carrier is told whose hands it is in now — read from the parcel's public
 * view once the change arrived, so the notice says what the server recorded.
 */
export function useHandedOn() {
  const queryClient = useQueryClient();
  const carried = useAssignedParcels();
  const [handedOn, setHandedOn] = useState<HandedOn | null>(null);
  const ids = useRef(new Set<string>());
  ids.current = new Set((carried.data?.pages ?? []).flatMap((page) => page.items.map((parcel) => parcel.id)));

  const heard = (change: LiveChange) => {
    if (change.topic !== 'me' || change.kind !== 'relayed' || !ids.current.has(change.parcelId)) return;
    void queryClient.fetchQuery({ ...trackingQueryOptions(change.parcelId), staleTime: 0 }).then(
      (view) => {
        if (view.runner) setHandedOn({ parcelId: view.id, runner: view.runner });
      },
      () => undefined,
    );
  };
  const notice = handedOn && (
    <p className="success" role="status">
      {messages.relayHandedOn(handedOn.parcelId, handedOn.runner)}
    </p>
  );
  return { heard, notice };
}
