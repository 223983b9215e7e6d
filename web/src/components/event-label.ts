import { budapestClock } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { ParcelEvent } from '@csomag/domain/parcel';
import { parcelEventLabels } from '@csomag/domain/parcel-states';

/** A timeline row's words: a relay as 'Átadva: futár1 → futár2, <hely>, 14:32', any other event by its label. */
export function eventLabel(event: ParcelEvent): string {
  const leg = event.relay;
  if (event.kind !== 'relayed' || !leg?.from) return parcelEventLabels[event.kind];
  return messages.relayLeg(leg.from, leg.to, leg.place, budapestClock(event.occurredAt ?? event.at));
}
