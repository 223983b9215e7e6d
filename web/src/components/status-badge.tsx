import { type ParcelState, parcelStateLabels } from '@csomag/domain/parcel-states';

/** A parcel's state as people read it: its status, with a failed attempt and a return told apart (issue 28). */
export function StatusBadge({ state }: { state: ParcelState }) {
  return <span className={`status status-${state}`}>{parcelStateLabels[state]}</span>;
}
