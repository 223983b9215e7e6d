import { type ParcelStatus, parcelStatusLabels } from '@csomag/domain/parcel';

export function StatusBadge({ status }: { status: ParcelStatus }) {
  return <span className={`status status-${status}`}>{parcelStatusLabels[status]}</span>;
}
