import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { ParcelDetail } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import type { ReactNode } from 'react';
import { Link } from '../../lib/router.tsx';
import { CustodyChain } from './custody-chain.tsx';
import { ParcelTimeline } from './parcel-timeline.tsx';

/**
 * What the back office weighs a case on (a 'Nem érkezett meg' report, an incident): the parcel's
 * link, what the case adds (`children`: proofs, failed attempts), its timeline and custody chain.
 */
export function ParcelEvidence({
  parcel,
  children,
}: {
  parcel: { id: string; deliveredAt?: string | null; events: ParcelDetail['events'] };
  children?: ReactNode;
}) {
  return (
    <>
      <p>
        {messages.reportParcel}:{' '}
        <Link className="mono" to={paths.adminEditParcel(parcel.id)}>
          {parcel.id}
        </Link>
        {parcel.deliveredAt && (
          <>
            {' '}
            · {messages.reportDeliveredAt}: {formatTimestamp(parcel.deliveredAt)}
          </>
        )}
      </p>
      {children}
      <ParcelTimeline title={messages.reportTimeline} events={parcel.events} />
      <CustodyChain parcelId={parcel.id} />
    </>
  );
}
