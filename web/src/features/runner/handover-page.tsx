import { handoverSummarySchema } from '@csomag/domain/delivery';
import { formatWeight } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { parcelStatusLabels } from '@csomag/domain/parcel';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { ApiError, apiRequest, errorMessage } from '../../api/client.ts';
import { FormError } from '../../components/form-field.tsx';
import { Loading } from '../../components/loading.tsx';
import { notify } from '../../lib/notify.ts';

/**
 * A used link says the parcel was handed over; any other refusal of the link reads the same to the
 * receiver; only trouble reaching us reads otherwise.
 */
const refusal = (error: unknown) => {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return errorMessage(error);
  return error.code === 'already_handed_over' ? messages.parcelAlreadyHandedOver : messages.handoverInvalid;
};

/** SPEC §2.7: the receiver scans the runner's QR and confirms with 'Átvétel' (public page). */
export function HandoverPage() {
  const [params] = useSearchParams();
  const parcelId = params.get('csomagid') ?? '';
  const token = params.get('token') ?? '';
  const runner = params.get('futar') ?? '';
  const sender = params.get('felado') ?? '';
  const complete = Boolean(parcelId && token && runner && sender);

  const summary = useQuery({
    queryKey: ['handover', parcelId, token],
    queryFn: ({ signal }) =>
      apiRequest(
        'GET',
        `/handover/${encodeURIComponent(parcelId)}?token=${encodeURIComponent(token)}`,
        handoverSummarySchema,
        undefined,
        signal,
      ),
    enabled: complete,
    retry: false,
  });
  const accept = useMutation({
    mutationFn: () =>
      apiRequest('POST', `/parcels/${encodeURIComponent(parcelId)}/handover`, z.unknown(), {
        token,
        futar: runner,
        felado: sender,
      }),
    onSuccess: () => notify.success(messages.parcelDelivered),
  });

  let body: ReactNode;
  if (!complete) body = <FormError message={messages.handoverInvalid} />;
  else if (summary.isPending) body = <Loading />;
  else if (summary.isError) body = <FormError message={refusal(summary.error)} />;
  else if (accept.isSuccess) {
    body = (
      <p className="success" role="status">
        {messages.parcelDelivered} Köszönjük, hogy a Csomagküldőt választottad.
      </p>
    );
  } else if (summary.data.status === 'delivered') {
    body = <FormError message={messages.parcelAlreadyHandedOver} />;
  } else if (summary.data.status !== 'in_transit') {
    // A parcel no longer on its way (given back) makes the link as good as expired.
    body = <FormError message={messages.handoverInvalid} />;
  } else {
    const parcel = summary.data;
    body = (
      <div className="card">
        <dl className="details">
          <dt>ID</dt>
          <dd className="mono">{parcel.id}</dd>
          <dt>Kategória</dt>
          <dd>{parcel.category}</dd>
          <dt>Súly</dt>
          <dd>{formatWeight(parcel.weightGrams)}</dd>
          <dt>Feladó</dt>
          <dd>{parcel.senderUser}</dd>
          <dt>Futár</dt>
          <dd>{parcel.runner}</dd>
          <dt>Státusz</dt>
          <dd>{parcelStatusLabels[parcel.status]}</dd>
        </dl>
        <FormError message={accept.isError ? refusal(accept.error) : null} />
        <button type="button" className="button primary" disabled={accept.isPending} onClick={() => accept.mutate()}>
          Átvétel
        </button>
      </div>
    );
  }
  return (
    <section className="page narrow">
      <h1>Csomagátvétel QR kóddal</h1>
      {body}
    </section>
  );
}
