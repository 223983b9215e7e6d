import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import type { RelaySummary } from '@csomag/domain/relay';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { CodeForm } from '../../components/code-form.tsx';
import { FormError, FormField } from '../../components/form-field.tsx';
import { ParcelFacts } from '../../components/parcel-facts.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { useWatchedPosition } from '../../lib/geolocation.ts';
import { useNavigate, useSearchParams } from '../../lib/router.tsx';
import { useRelaySummary, useTakeOver } from './api.ts';

/** A malformed link is refused as a bad field: its own words say what is wrong, not the form's summary. */
const refusal = (error: unknown) => (error instanceof ApiError && error.fields.token) || errorMessage(error);

/** The parcel as its carrier hands it over, and 'Átveszem'; a refusal is said in the server's words. */
function Confirmation({ parcel, token }: { parcel: RelaySummary; token: string }) {
  const takeOver = useTakeOver();
  const navigate = useNavigate();
  // Where the hand-over happens, when the phone already knows: never waited for.
  const { position } = useWatchedPosition();
  const confirm = () =>
    takeOver.mutate(
      { parcelId: parcel.id, token, ...(position ? { place: { lat: position.lat, lng: position.lng } } : {}) },
      { onSuccess: () => navigate(paths.inProgressParcels) },
    );
  return (
    <div className="card">
      <p>{messages.takeOverIntro}</p>
      <ParcelFacts parcel={parcel} runnerLabel={messages.takeOverCurrentHolder}>
        <dt>{messages.takeOverFrom}</dt>
        <dd>{parcel.senderAddress}</dd>
        <dt>{messages.takeOverTo}</dt>
        <dd>{parcel.receiverAddress}</dd>
      </ParcelFacts>
      <FormError message={takeOver.isError ? refusal(takeOver.error) : null} />
      <button
        type="button"
        className="button primary"
        disabled={takeOver.isPending || takeOver.isSuccess}
        onClick={confirm}
      >
        {messages.takeOverConfirm}
      </button>
    </div>
  );
}

/**
 * 'Átvétel kóddal' (issue 28): the parcel's id and the code the carrier's phone shows, typed in
 * when the QR code cannot be scanned; taken over at once, the refusal in the server's words.
 */
function ByCode({ initialParcelId }: { initialParcelId: string }) {
  const takeOver = useTakeOver();
  const navigate = useNavigate();
  const { position } = useWatchedPosition();
  const [parcelId, setParcelId] = useState(initialParcelId);
  return (
    <div className="card">
      <CodeForm
        name={messages.takeOverByCodeTitle}
        label={messages.takeOverPinLabel}
        submitLabel={messages.takeOverConfirm}
        pending={takeOver.isPending || takeOver.isSuccess}
        error={takeOver.error}
        primary
        onSubmit={(pin) =>
          takeOver.mutate(
            {
              parcelId: parcelId.trim().toUpperCase(),
              pin,
              ...(position ? { place: { lat: position.lat, lng: position.lng } } : {}),
            },
            { onSuccess: () => navigate(paths.inProgressParcels) },
          )
        }
      >
        <h2>{messages.takeOverByCodeTitle}</h2>
        <p className="muted">{messages.takeOverByCodeHint}</p>
        <FormField
          label={messages.takeOverParcelIdLabel}
          autoComplete="off"
          autoCapitalize="characters"
          value={parcelId}
          onChange={(event) => setParcelId(event.target.value)}
        />
      </CodeForm>
    </div>
  );
}

/**
 * /FutarAtvetel?csomag=&token=: the next runner opens the carrier's QR link and takes the parcel
 * over; without a link (or with the parcel's id only), they type the code the carrier shows.
 */
export function TakeOverPage() {
  const [params] = useSearchParams();
  const parcelId = params.get('csomag') ?? '';
  const token = params.get('token') ?? '';
  const complete = parcelId !== '' && token !== '';
  const runner = useSession().data?.role === 'runner';
  const summary = useRelaySummary(parcelId, token, complete && runner);
  return (
    <section className="page narrow">
      <h1>{messages.takeOverTitle}</h1>
      {!runner ? (
        <FormError message={messages.takeOverRunnersOnly} />
      ) : complete ? (
        <QueryState query={summary} describeError={refusal}>
          {(parcel) => <Confirmation parcel={parcel} token={token} />}
        </QueryState>
      ) : (
        <ByCode initialParcelId={parcelId} />
      )}
    </section>
  );
}
