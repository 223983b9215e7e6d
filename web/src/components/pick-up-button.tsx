import { messages } from '@csomag/domain/messages';
import { usePickUp } from '../api/runner-lists.ts';

/** The one atomic pickup, from the list or the map; the hook tells the result once the server answered. */
export function PickUpButton({ parcelId, label = messages.pickUpParcel }: { parcelId: string; label?: string }) {
  const pickUp = usePickUp();
  return (
    <button
      type="button"
      className="button primary"
      disabled={pickUp.isPending}
      onClick={() => pickUp.mutate(parcelId)}
    >
      {label}
    </button>
  );
}
