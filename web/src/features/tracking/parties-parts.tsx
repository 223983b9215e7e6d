import type { TrackingView } from '@csomag/domain/parcel';
import { AttemptsSection } from '../../components/attempts-section.tsx';
import { HandoverCode } from '../../components/handover-code.tsx';

/** The tracking page's parts for the parcel's parties: its attempts and a new time, the hand-over code. */
export function PartiesParts({ parcel }: { parcel: TrackingView }) {
  return (
    <>
      <AttemptsSection parcel={parcel} />
      <HandoverCode parcel={parcel} />
    </>
  );
}
