import { type ParcelAdminUpdate, parcelAdminUpdateSchema } from '@csomag/domain/admin';
import { formatTimestamp, formatWeight } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import {
  backOfficeStatusChange,
  PARCEL_STATUSES,
  type ParcelDetail,
  parcelEventLabels,
  parcelStatusLabels,
} from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { errorMessage } from '../../api/client.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { Loading } from '../../components/loading.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { parcelQuery, useAdminLive, useHandOver, useUpdateParcel } from './api.ts';

const editSchema = parcelAdminUpdateSchema
  .pick({ category: true, status: true, senderAddress: true, receiverAddress: true })
  .required()
  // The server checks the reason (whether it is needed, and its length) and answers beside the field.
  .extend({ reason: z.string().optional() });
type Values = z.infer<typeof editSchema>;

function ParcelEditForm({ parcel }: { parcel: ParcelDetail }) {
  const update = useUpdateParcel(parcel.id);
  const handOver = useHandOver();
  const form = useForm<Values>({
    resolver: zodResolver(editSchema),
    mode: 'onTouched',
    values: {
      category: parcel.category,
      status: parcel.status,
      senderAddress: parcel.senderAddress,
      receiverAddress: parcel.receiverAddress,
    },
  });
  const { errors, isSubmitting, dirtyFields } = form.formState;
  // A correction (taking a parcel from its runner, undoing a delivery) says why: the server asks too.
  const status = form.watch('status');
  const needsReason = status !== parcel.status && backOfficeStatusChange(parcel.status, status) === 'needs_reason';
  // Only what changed goes to the server: an unchanged address is not geocoded again.
  const onSubmit = form.handleSubmit(async (values) => {
    const changed = Object.fromEntries(
      Object.entries(values).filter(([field]) => field !== 'reason' && dirtyFields[field as keyof Values]),
    ) as ParcelAdminUpdate;
    if (needsReason && values.reason) changed.reason = values.reason;
    try {
      await update.mutateAsync(changed);
      notify.success(messages.parcelSaved);
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form card" onSubmit={onSubmit} noValidate>
      <FormField label="Azonosító" value={parcel.id} readOnly disabled />
      <FormField label="Létrehozva" value={formatTimestamp(parcel.createdAt)} readOnly disabled />
      <p className="muted">
        Súly: {formatWeight(parcel.weightGrams)} · Feladó: {parcel.senderUser} · Futár:{' '}
        {parcel.runner ?? messages.waitingForRunner}
      </p>
      <FormField label="Kategória" error={errors.category?.message} {...form.register('category')} />
      <div className="field">
        <label htmlFor="parcel-status">Státusz</label>
        <select id="parcel-status" {...form.register('status')}>
          {PARCEL_STATUSES.map((option) => (
            <option
              key={option}
              value={option}
              // Only pickup or assignment gives a parcel its runner.
              disabled={option !== parcel.status && backOfficeStatusChange(parcel.status, option) === 'needs_runner'}
            >
              {parcelStatusLabels[option]}
            </option>
          ))}
        </select>
        {errors.status?.message && <p className="field-error">{errors.status.message}</p>}
      </div>
      {needsReason && <FormField label="Indok" error={errors.reason?.message} {...form.register('reason')} />}
      <FormField label="Feladási cím" error={errors.senderAddress?.message} {...form.register('senderAddress')} />
      <FormField
        label="Kiszállítási cím"
        error={errors.receiverAddress?.message}
        {...form.register('receiverAddress')}
      />
      <FormError message={serverSummary(errors)} />
      <div className="card-actions">
        <SubmitButton busy={isSubmitting}>Módosít</SubmitButton>
        <button
          type="button"
          className="button"
          disabled={parcel.status !== 'in_transit' || handOver.isPending}
          onClick={() => handOver.mutate(parcel.id)}
        >
          Leadás
        </button>
        <Link className="button" to={paths.adminParcels}>
          Vissza
        </Link>
      </div>
    </form>
  );
}

export function AdminParcelEditPage() {
  const parcelId = useParams().packageId ?? '';
  const parcel = useQuery(parcelQuery(parcelId));
  useAdminLive([['parcel', parcelId]]);
  return (
    <section className="page">
      <h1>Csomag Szerkesztése</h1>
      {parcel.isPending ? (
        <Loading />
      ) : parcel.isError ? (
        <FormError message={errorMessage(parcel.error)} />
      ) : (
        <div className="profile-layout">
          <ParcelEditForm parcel={parcel.data} />
          <section className="card timeline" aria-labelledby="admin-timeline-title">
            <h2 id="admin-timeline-title">Előzmények</h2>
            <ol>
              {parcel.data.events.map((event, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the timeline only ever grows at its end
                <li key={index}>
                  <time dateTime={event.at}>{formatTimestamp(event.at)}</time> {parcelEventLabels[event.kind]}
                  {event.actor && <span className="muted"> ({event.actor})</span>}
                </li>
              ))}
            </ol>
          </section>
        </div>
      )}
    </section>
  );
}
