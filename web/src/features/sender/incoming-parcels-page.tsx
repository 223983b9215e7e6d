import { messages } from '@csomag/domain/messages';
import { AttemptsSection } from '../../components/attempts-section.tsx';
import { HandoverCode } from '../../components/handover-code.tsx';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { ProofSection } from '../../components/proof/proof-section.tsx';
import { RateParcel } from '../../components/ratings/rate-parcel.tsx';
import { ReportNotReceived } from '../../components/report-not-received.tsx';
import { useIncomingParcels, useSenderLiveLists } from './api.ts';

/** Parcels whose destination is the address in my profile (compared after normalising it). */
export function IncomingParcelsPage() {
  const query = useIncomingParcels();
  useSenderLiveLists();
  return (
    <section className="page">
      <h1>{messages.incomingParcelsTitle}</h1>
      <ParcelListView
        query={query}
        empty={messages.incomingEmpty}
        renderActions={(parcel) => (
          <>
            <AttemptsSection parcel={parcel} />
            <HandoverCode parcel={parcel} />
            <ReportNotReceived parcel={parcel} />
            <ProofSection parcel={parcel} />
            <RateParcel parcel={parcel} />
          </>
        )}
      />
    </section>
  );
}
