import { messages } from '@csomag/domain/messages';
import type { CarriedParcel } from '@csomag/domain/parcel';
import { isDoorKnown } from '@csomag/domain/parcel-states';
import { paths } from '@csomag/domain/paths';
import { type ReactNode, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { useRunnerLiveLists } from '../../api/runner-live.ts';
import { CodeForm } from '../../components/code-form.tsx';
import { FormError } from '../../components/form-field.tsx';
import { IncidentForm } from '../../components/incident-form.tsx';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { PhotoCapture } from '../../components/proof/photo-capture.tsx';
import { windowText } from '../../components/redelivery-window.ts';
import { useCodeFromLink } from '../../lib/code-link.ts';
import { currentPosition } from '../../lib/geolocation.ts';
import { rememberQrParcel } from '../../lib/qr-parcel.ts';
import { Link, useNavigate } from '../../lib/router.tsx';
import { isPositionRefusal, useAssignedParcels, useDeliver, usePinHandover } from './api.ts';
import { AttemptForm } from './attempt-form.tsx';
import { GiveUpChoice, type Panel } from './give-up-choice.tsx';
import { useHandedOn } from './handed-on.tsx';
import { NeighbourForm, type NeighbourSlip, NeighbourSlips } from './neighbour-form.tsx';

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

/**
 * 'Átadás kóddal': the code the person at the door — or, for a parcel bound for a drop point, its
 * staff — reads out (issue 28). Refusals (a wrong code, how many tries are left) are the server's words.
 */
function PinHandover({ parcelId }: { parcelId: string }) {
  const handOver = usePinHandover();
  return (
    <CodeForm
      initialPin={useCodeFromLink(parcelId)}
      label={messages.pinHandoverLabel}
      submitLabel={messages.pinHandoverSubmit}
      onSubmit={(pin) => handOver.mutate({ parcelId, pin })}
      pending={handOver.isPending}
      error={handOver.error}
      inline
    />
  );
}

/**
 * The relay's actions on a carried parcel's card — hand it to another runner now, or offer it for
 * later — put there by app/runner-screens.tsx (features do not import each other).
 */
export type RelayActions = (parcelId: string) => ReactNode;

/** Where the parcel is going now and what happened on the way: to its sender, failed attempts, the new time asked. */
function JourneyNotes({ parcel }: { parcel: CarriedParcel }) {
  const returning = parcel.state === 'returning';
  if (!returning && parcel.attempts === 0 && !parcel.redelivery && !parcel.dropPoint && !parcel.neighbourWish) {
    return null;
  }
  return (
    <div className="notice">
      {returning && (
        <p>
          <strong>{messages.returningTo(parcel.senderAddress)}</strong>
        </p>
      )}
      {parcel.dropPoint && !returning && (
        <p>
          <strong>{messages.dropPointDestination(parcel.dropPoint.name, parcel.dropPoint.address)}</strong>
        </p>
      )}
      {parcel.attempts > 0 && <p>{messages.attemptCount(parcel.attempts)}</p>}
      {parcel.neighbourWish && !returning && (
        <p>{messages.neighbourWishForRunner(parcel.neighbourWish.name, parcel.neighbourWish.door)}</p>
      )}
      {parcel.redelivery && !returning && <p>{messages.redeliveryWindowForRunner(windowText(parcel.redelivery))}</p>}
    </div>
  );
}

function DeliveryActions({
  parcel,
  relayActions,
  onNeighbourSlip,
}: {
  parcel: CarriedParcel;
  relayActions: RelayActions;
  onNeighbourSlip: (slip: NeighbourSlip) => void;
}) {
  const deliver = useDeliver();
  const navigate = useNavigate();
  const [noPosition, setNoPosition] = useState<string | null>(null);
  const [locating, setLocating] = useState(false);
  const [panel, setPanel] = useState<Panel>('none');

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

  // A parcel on its way back is delivered at its sender's door (issue 28).
  const returning = parcel.state === 'returning';
  // 15 m from a town's centre says nothing about the door: then only the QR confirmation.
  // Bound for a drop point, it is handed to its staff with their code, never left by position.
  const doorKnown =
    !(parcel.dropPoint && !returning) && isDoorKnown(returning ? parcel.senderPrecision : parcel.receiverPrecision);
  // Refused for where the runner stands or how well the phone knows it: the QR hand-over is the way on now.
  const qrFirst =
    deliver.error instanceof ApiError &&
    (deliver.error.code === 'too_far' || deliver.error.code === 'position_too_imprecise');
  const givingUp = panel === 'give-up' || panel === 'relay' || panel === 'return';

  return (
    <div className="card-actions column">
      <JourneyNotes parcel={parcel} />
      <Contacts contacts={parcel.contacts} />
      {!doorKnown && (
        <p className="muted">{returning ? messages.returnDestinationImprecise : messages.destinationImprecise}</p>
      )}
      {!returning && <PhotoCapture parcelId={parcel.id} required={parcel.photoRequired} onSaved={photoSaved} />}
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
      <PinHandover parcelId={parcel.id} />
      {/* Finding the position may take up to 15 s: said at once, with the QR path beside it. */}
      <p className="muted live-region" role="status">
        {locating ? messages.locatingForDelivery : null}
      </p>
      <FormError message={problem} />
      {panel !== 'relay' && relayActions(parcel.id)}
      {panel === 'attempt' && <AttemptForm parcelId={parcel.id} onDone={() => setPanel('none')} />}
      {panel === 'incident' && <IncidentForm parcelId={parcel.id} onDone={() => setPanel('none')} />}
      {panel === 'neighbour' && (
        <NeighbourForm parcelId={parcel.id} onDone={() => setPanel('none')} onLeft={onNeighbourSlip} />
      )}
      {givingUp && (
        <GiveUpChoice
          parcelId={parcel.id}
          returning={returning}
          panel={panel}
          setPanel={setPanel}
          relay={relayActions(parcel.id)}
        />
      )}
      {panel === 'none' && (
        <div className="card-actions">
          {/* At the sender's door there is no attempt to record: the return ends with them. */}
          {!returning && (
            <button type="button" className="button" onClick={() => setPanel('attempt')}>
              {messages.attemptButton}
            </button>
          )}
          {/* At the receiver's door only: not on the way back, not when a drop point takes it. */}
          {!returning && !parcel.dropPoint && (
            <button type="button" className="button" onClick={() => setPanel('neighbour')}>
              {messages.neighbourButton}
            </button>
          )}
          <button type="button" className="button" onClick={() => setPanel('give-up')}>
            {messages.giveBack}
          </button>
          <button type="button" className="button" onClick={() => setPanel('incident')}>
            {messages.incidentReportButton}
          </button>
        </div>
      )}
    </div>
  );
}

export function InProgressList({ relayActions }: { relayActions: RelayActions }) {
  const query = useAssignedParcels();
  const [slips, setSlips] = useState<NeighbourSlip[]>([]);
  const written = (parcelId: string) => setSlips((all) => all.filter((slip) => slip.parcelId !== parcelId));
  return (
    <>
      <NeighbourSlips slips={slips} onWritten={written} />
      <ParcelListView
        query={query}
        empty={messages.inProgressEmpty}
        showPrecision
        renderActions={(parcel) => (
          <DeliveryActions
            parcel={parcel}
            relayActions={relayActions}
            onNeighbourSlip={(slip) => setSlips((all) => [...all, slip])}
          />
        )}
      />
    </>
  );
}

export function InProgressPage({ relayActions }: { relayActions: RelayActions }) {
  const handedOn = useHandedOn();
  useRunnerLiveLists(handedOn.heard);
  return (
    <section className="page">
      <h1>{messages.inProgressTitle}</h1>
      {handedOn.notice}
      {/* Another runner hands one over by their code (their QR code opens that page by itself). */}
      <p>
        <Link to={paths.runnerTakeOver}>{messages.takeOverFromRunnerLink}</Link>
      </p>
      <InProgressList relayActions={relayActions} />
    </section>
  );
}
