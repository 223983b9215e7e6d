import { messages } from '@csomag/domain/messages';
import { type CarriedParcel, type GiveBackBody, giveBackBodySchema, isDoorKnown } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { ApiError, errorMessage } from '../../api/client.ts';
import { useRunnerLiveLists } from '../../api/runner-live.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { PhotoCapture } from '../../components/proof/photo-capture.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { currentPosition } from '../../lib/geolocation.ts';
import { rememberQrParcel } from '../../lib/qr-parcel.ts';
import { isPositionRefusal, useAssignedParcels, useDeliver, useGiveBack } from './api.ts';
import { useHandedOn } from './handed-on.tsx';

/** Whom to call about the parcel: tap to dial on a phone. Only its carrier sees this. */
function Contacts({ contacts }: { contacts: CarriedParcel['contacts'] }) {
  const dial = (phone: string) => `tel:${phone.replace(/[^+0-9]/g, '')}`;
  return (
    <p className="contacts">
      {contacts.recipientPhone && (
        <a className="button" href={dial(contacts.recipientPhone)}>
          {contacts.recipientName ? messages.callNamedRecipient(contacts.recipientName) : messages.callRecipient}
        </a>
      )}
      <a className="button" href={dial(contacts.senderPhone)}>
        {messages.callSender(contacts.senderName)}
      </a>
    </p>
  );
}

/** 'Visszaadom': the parcel goes back to the pool before delivery, with the runner's reason. */
function GiveBack({ parcelId }: { parcelId: string }) {
  const giveBack = useGiveBack();
  const [asking, setAsking] = useState(false);
  // The schema the server checks the reason with checks it here first.
  const form = useForm<GiveBackBody>({ resolver: zodResolver(giveBackBodySchema), defaultValues: { reason: '' } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ reason }) => {
    try {
      await giveBack.mutateAsync({ parcelId, reason });
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  if (!asking) {
    return (
      <button type="button" className="button" onClick={() => setAsking(true)}>
        {messages.giveBack}
      </button>
    );
  }
  return (
    <form className="form" onSubmit={submit} noValidate>
      <FormField label={messages.giveBackReasonLabel} error={errors.reason?.message} {...form.register('reason')} />
      <FormError message={serverSummary(errors)} />
      <div className="card-actions">
        <button type="submit" className="button danger" disabled={isSubmitting}>
          {messages.giveBack}
        </button>
        <button type="button" className="button" onClick={() => setAsking(false)}>
          {messages.cancelButton}
        </button>
      </div>
    </form>
  );
}

/**
 * The relay's actions on a carried parcel's card — hand it to another runner now, or offer it for
 * later — put there by app/runner-screens.tsx (features do not import each other).
 */
export type RelayActions = (parcelId: string) => ReactNode;

function DeliveryActions({ parcel, relayActions }: { parcel: CarriedParcel; relayActions: RelayActions }) {
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
  // 'előbb készíts fotót' is no longer true once a photo is stored.
  const photoSaved = () => {
    if (deliver.error instanceof ApiError && deliver.error.code === 'photo_required') deliver.reset();
  };

  // 15 m from a town's centre says nothing about the door: then only the receiver's QR confirmation.
  const doorKnown = isDoorKnown(parcel.receiverPrecision);
  // Refused for where the runner stands or how well the phone knows it: the QR hand-over is the way on now.
  const qrFirst =
    deliver.error instanceof ApiError &&
    (deliver.error.code === 'too_far' || deliver.error.code === 'position_too_imprecise');

  return (
    <div className="card-actions column">
      <Contacts contacts={parcel.contacts} />
      {!doorKnown && <p className="muted">{messages.destinationImprecise}</p>}
      <PhotoCapture parcelId={parcel.id} required={parcel.photoRequired} onSaved={photoSaved} />
      <div className="card-actions">
        {doorKnown && (
          <button
            type="button"
            className={qrFirst ? 'button' : 'button primary'}
            disabled={locating || deliver.isPending}
            onClick={deliverHere}
          >
            {messages.deliverWithoutQr}
          </button>
        )}
        <button
          type="button"
          className={qrFirst ? 'button primary' : 'button'}
          onClick={() => {
            rememberQrParcel(parcel.id);
            navigate(paths.runnerQr);
          }}
        >
          {messages.deliverWithQr}
        </button>
      </div>
      {/* Finding the position may take up to 15 s: said at once, with the QR path beside it. */}
      <p className="muted live-region" role="status">
        {locating ? messages.locatingForDelivery : null}
      </p>
      <FormError message={problem} />
      {relayActions(parcel.id)}
      <GiveBack parcelId={parcel.id} />
    </div>
  );
}

export function InProgressList({ relayActions }: { relayActions: RelayActions }) {
  const query = useAssignedParcels();
  return (
    <ParcelListView
      query={query}
      empty={messages.inProgressEmpty}
      showPrecision
      renderActions={(parcel) => <DeliveryActions parcel={parcel} relayActions={relayActions} />}
    />
  );
}

export function InProgressPage({ relayActions }: { relayActions: RelayActions }) {
  const handedOn = useHandedOn();
  useRunnerLiveLists(handedOn.heard);
  return (
    <section className="page">
      <h1>{messages.inProgressTitle}</h1>
      {handedOn.notice}
      <InProgressList relayActions={relayActions} />
    </section>
  );
}
