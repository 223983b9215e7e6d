import type { HandoverBody, HandoverSummary } from '@csomag/domain/delivery';
import { messages } from '@csomag/domain/messages';
import type { Signature } from '@csomag/domain/proof';
import { useState } from 'react';
import { ApiError, type ApiErrorCode, errorMessage } from '../../api/client.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { ParcelFacts } from '../../components/parcel-facts.tsx';
import { SignatureField } from '../../components/proof/signature-field.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { useSearchParams } from '../../lib/router.tsx';
import { useAcceptHandover, useHandoverSummary } from './api.ts';
import { handedOver } from './handed-over.ts';

/** Refusals of the link itself: forged, expired, for a parcel that is gone or has left that runner. */
const LINK_REFUSALS: ReadonlySet<ApiErrorCode> = new Set([
  'handover_link_invalid',
  'handover_link_stale',
  'parcel_not_found',
  'invalid_body',
]);

/**
 * A used link says the parcel was handed over; any other refusal of the link reads the same to the
 * receiver; anything else (trouble reaching us) is said as it is.
 */
const refusal = (error: unknown) => {
  if (error instanceof ApiError && error.code === 'handover_link_used') return messages.parcelAlreadyHandedOver;
  if (error instanceof ApiError && LINK_REFUSALS.has(error.code)) return messages.handoverInvalid;
  return errorMessage(error);
};

/** What the receiver confirms, once the link has been read: the parcel as the runner hands it over. */
function Confirmation({ parcel, link }: { parcel: HandoverSummary; link: HandoverBody & { parcelId: string } }) {
  const accept = useAcceptHandover();
  // Optional: sent with the confirmation when the receiver signed (issue 15).
  const [signature, setSignature] = useState<Signature | null>(null);
  // Recorded with the confirmation beside the signed-in account, if any (issue 27).
  const [name, setName] = useState('');
  // SPEC's toast ('Sikeres csomagleadás!') is the runner's words; the receiver reads what they did.
  if (accept.isSuccess) {
    return (
      <p className="success" role="status">
        {messages.handoverReceived(link.parcelId)} {messages.handoverThanks}
      </p>
    );
  }
  if (handedOver(parcel.status)) return <FormError message={messages.parcelAlreadyHandedOver} />;
  // A parcel no longer on its way (lost, say) makes the link as good as expired.
  if (parcel.status !== 'in_transit') return <FormError message={messages.handoverInvalid} />;
  return (
    <div className="card">
      <ParcelFacts parcel={parcel} />
      <FormField
        label={messages.handoverNameLabel}
        autoComplete="name"
        maxLength={100}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <SignatureField onChange={setSignature} />
      <FormError message={accept.isError ? refusal(accept.error) : null} />
      <button
        type="button"
        className="button primary"
        disabled={accept.isPending}
        onClick={() =>
          accept.mutate({ ...link, ...(signature ? { signature } : {}), ...(name.trim() ? { name: name.trim() } : {}) })
        }
      >
        {messages.acceptHandover}
      </button>
    </div>
  );
}

/** SPEC §2.7: the receiver scans the runner's QR and confirms the handover (public page). */
export function HandoverPage() {
  const [params] = useSearchParams();
  // The QR link's parameters, named as SPEC's link has always named them.
  const link = {
    parcelId: params.get('csomagid') ?? '',
    token: params.get('token') ?? '',
    futar: params.get('futar') ?? '',
    felado: params.get('felado') ?? '',
  };
  const complete = Object.values(link).every(Boolean);
  const summary = useHandoverSummary(link.parcelId, link.token, complete);
  return (
    <section className="page narrow">
      <h1>{messages.handoverTitle}</h1>
      {complete ? (
        <QueryState query={summary} describeError={refusal}>
          {(parcel) => <Confirmation parcel={parcel} link={link} />}
        </QueryState>
      ) : (
        <FormError message={messages.handoverInvalid} />
      )}
    </section>
  );
}
