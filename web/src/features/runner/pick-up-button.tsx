import { messages } from '@csomag/domain/messages';
import { notify } from '../../lib/notify.ts';
import { usePickUp } from './api.ts';

/** The one atomic pickup, from the list or the map; success only once the server confirmed it. */
export function PickUpButton({ parcelId, label = 'Csomag felvétele' }: { parcelId: string; label?: string }) {
  const pickUp = usePickUp();
  return (
    <button
      type="button"
      className="button primary"
      disabled={pickUp.isPending}
      onClick={() =>
        pickUp.mutate(parcelId, {
          onSuccess: () => notify.success(messages.parcelPickedUp),
          onError: notify.error,
        })
      }
    >
      {label}
    </button>
  );
}
