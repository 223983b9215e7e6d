import { messages } from '@csomag/domain/messages';
import { type CarriedParcel, isDoorKnown } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, errorMessage } from '../../api/client.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { currentPosition } from '../../lib/geolocation.ts';
import { assignedParcelsQuery, isPositionRefusal, useDeliver, useGiveBack, useRunnerLiveLists } from './api.ts';
import { rememberQrParcel } from './qr-parcel.ts';

/** Whom to call about the parcel: tap to dial on a phone. Only its carrier sees this. */
function Contacts({ contacts }: { contacts: CarriedParcel['contacts'] }) {
  const dial = (phone: string) => `tel:${phone.replace(/[^+0-9]/g, '')}`;
  return (
    <p className="contacts">
      {contacts.recipientPhone && (
        <a className="button" href={dial(contacts.recipientPhone)}>
          Címzett hívása{contacts.recipientName ? ` (${contacts.recipientName})` : ''}
        </a>
      )}
      <a className="button" href={dial(contacts.senderPhone)}>
        Feladó hívása ({contacts.senderName})
      </a>
    </p>
  );
}

/** 'Visszaadom': the parcel goes back to the pool before delivery, with the runner's reason. */
function GiveBack({ parcelId }: { parcelId: string }) {
  const giveBack = useGiveBack();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  if (!asking) {
    return (
      <button type="button" className="button" onClick={() => setAsking(true)}>
        Visszaadom
      </button>
    );
  }
  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        giveBack.mutate({ parcelId, reason });
      }}
    >
      <FormField
        label="Miért adod vissza?"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        error={
          giveBack.error instanceof ApiError ? (giveBack.error.fields.reason ?? giveBack.error.message) : undefined
        }
      />
      <div className="card-actions">
        <button type="submit" className="button danger" disabled={giveBack.isPending}>
          Visszaadom
        </button>
        <button type="button" className="button" onClick={() => setAsking(false)}>
          Mégsem
        </button>
      </div>
    </form>
  );
}

function DeliveryActions({ parcel }: { parcel: CarriedParcel }) {
  const deliver = useDeliver();
  const navigate = useNavigate();
  const [noPosition, setNoPosition] = useState<string | null>(null);
  const [locating, setLocating] = useState(false);

  // Without QR: the server measures the distance from this fix to the door (SPEC §4).
  const deliverHere = async () => {
    setNoPosition(null);
    deliver.reset();
    setLocating(true);
    const position = await currentPosition().catch((error: unknown) => setNoPosition(errorMessage(error)));
    setLocating(false);
    if (position) deliver.mutate({ parcelId: parcel.id, position });
  };
  // Only what concerns this card is said here; the hook tells the rest (api.ts).
  const problem = noPosition ?? (isPositionRefusal(deliver.error) ? errorMessage(deliver.error) : null);

  // 15 m from a town's centre says nothing about the door: then only the receiver's QR confirmation.
  const doorKnown = isDoorKnown(parcel.receiverPrecision);

  return (
    <div className="card-actions column">
      <Contacts contacts={parcel.contacts} />
      {!doorKnown && <p className="muted">{messages.destinationImprecise}</p>}
      <div className="card-actions">
        {doorKnown && (
          <button
            type="button"
            className="button primary"
            disabled={locating || deliver.isPending}
            onClick={deliverHere}
          >
            Leadás QR kód nélkül
          </button>
        )}
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
      <GiveBack parcelId={parcel.id} />
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
