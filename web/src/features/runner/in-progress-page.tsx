import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { FormError } from '../../components/form-field.tsx';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { currentPosition } from '../../lib/geolocation.ts';
import { notify } from '../../lib/notify.ts';
import { assignedParcelsQuery, useDeliver, useRunnerLiveLists } from './api.ts';
import { rememberQrParcel } from './qr-parcel.ts';

function DeliveryActions({ parcel }: { parcel: Parcel }) {
  const deliver = useDeliver();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  const [locating, setLocating] = useState(false);

  // Without QR: the server measures the distance from this fix to the door (SPEC §4).
  const deliverHere = async () => {
    setProblem(null);
    setLocating(true);
    try {
      const position = await currentPosition();
      await deliver.mutateAsync({ parcelId: parcel.id, position });
      notify.success(messages.parcelDelivered);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setLocating(false);
    }
  };

  return (
    <div className="card-actions column">
      <div className="card-actions">
        <button type="button" className="button primary" disabled={locating} onClick={deliverHere}>
          Leadás QR kód nélkül
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            rememberQrParcel(parcel.id);
            navigate(paths.runnerQr);
          }}
        >
          Leadás QR kóddal
        </button>
      </div>
      <FormError message={problem} />
    </div>
  );
}

export function InProgressList() {
  const query = useInfiniteQuery(assignedParcelsQuery());
  return (
    <ParcelListView
      query={query}
      empty="Most nincs nálad szállítandó csomag."
      renderActions={(parcel) => <DeliveryActions parcel={parcel} />}
    />
  );
}

export function InProgressPage() {
  useRunnerLiveLists();
  return (
    <section className="page">
      <h1>Folyamatban lévő csomagok</h1>
      <InProgressList />
    </section>
  );
}
