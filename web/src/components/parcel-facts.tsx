import type { HandoverSummary } from '@csomag/domain/delivery';
import { formatWeight } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { parcelStatusLabels } from '@csomag/domain/parcel-states';
import type { ReactNode } from 'react';

/** What a person checks before taking a parcel from a runner (the receiver, the next runner); `children` add rows. */
export function ParcelFacts({
  parcel,
  runnerLabel = messages.runnerLabel,
  children,
}: {
  parcel: HandoverSummary;
  runnerLabel?: string;
  children?: ReactNode;
}) {
  return (
    <dl className="details">
      <dt>{messages.parcelIdLabel}</dt>
      <dd className="mono">{parcel.id}</dd>
      <dt>{messages.categoryLabel}</dt>
      <dd>{parcel.category}</dd>
      <dt>{messages.weightLabel}</dt>
      <dd>{formatWeight(parcel.weightGrams)}</dd>
      <dt>{messages.senderLabel}</dt>
      <dd>{parcel.senderUser}</dd>
      <dt>{runnerLabel}</dt>
      <dd>{parcel.runner}</dd>
      <dt>{messages.statusLabel}</dt>
      <dd>{parcelStatusLabels[parcel.status]}</dd>
      {children}
    </dl>
  );
}
