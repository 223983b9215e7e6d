import {
  DROP_POINT_KINDS,
  type DropPointBody,
  type DropPointKind,
  dropPointBodySchema,
  dropPointKindLabels,
} from '@csomag/domain/drop-points';
import { messages } from '@csomag/domain/messages';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { type AdminDropPoint, useAdminDropPoints, useSaveDropPoint } from '../../api/drop-points.ts';
import { FormError, FormField, SelectField } from '../../components/form-field.tsx';
import { requestResolver } from '../../components/form-resolver.ts';
import { QueryState } from '../../components/query-state.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';

/** The form as the back office fills it in: coordinates and staff as typed. */
interface Fields {
  name: string;
  kind: DropPointKind | '';
  address: string;
  location: { lat: string; lng: string };
  openingHours: string;
  staff: string;
  active: boolean;
}

const empty: Fields = {
  name: '',
  kind: '',
  address: '',
  location: { lat: '', lng: '' },
  openingHours: '',
  staff: '',
  active: true,
};
const fieldsOf = (point: AdminDropPoint): Fields => ({
  name: point.name,
  kind: point.kind,
  address: point.address,
  location: { lat: String(point.location.lat), lng: String(point.location.lng) },
  openingHours: point.openingHours,
  staff: point.staff.join(', '),
  active: point.active,
});

/** The request the fields make, checked with the server's own schema (a point in Hungary, hours that parse). */
const dropPointResolver = requestResolver<Fields, typeof dropPointBodySchema>(dropPointBodySchema, (fields) => ({
  ...fields,
  location: { lat: Number(fields.location.lat), lng: Number(fields.location.lng) },
  staff: fields.staff
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean),
}));

/** A drop point's form: checked with the server's own schema first, then saved; refusals by field. */
function DropPointForm({ point, onDone }: { point: AdminDropPoint | undefined; onDone: () => void }) {
  const save = useSaveDropPoint();
  const form = useForm<Fields, unknown, DropPointBody>({
    resolver: dropPointResolver,
    defaultValues: point ? fieldsOf(point) : empty,
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ id: point?.id, body });
      notify.success(messages.dropPointSaved);
      onDone();
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form card" onSubmit={submit} noValidate aria-label={messages.dropPointFormTitle}>
      <FormField label={messages.dropPointNameLabel} error={errors.name?.message} {...form.register('name')} />
      <SelectField
        label={messages.dropPointKindLabel}
        placeholder={messages.dropPointKindInvalid}
        options={DROP_POINT_KINDS}
        labels={dropPointKindLabels}
        error={errors.kind?.message}
        {...form.register('kind')}
      />
      <FormField label={messages.dropPointAddressLabel} error={errors.address?.message} {...form.register('address')} />
      <FormField
        label={messages.dropPointLatLabel}
        inputMode="decimal"
        error={errors.location?.message}
        {...form.register('location.lat')}
      />
      <FormField label={messages.dropPointLngLabel} inputMode="decimal" {...form.register('location.lng')} />
      <FormField
        label={messages.dropPointHoursLabel}
        error={errors.openingHours?.message}
        hint={messages.openingHoursInvalid}
        {...form.register('openingHours')}
      />
      <FormField label={messages.dropPointStaffLabel} error={errors.staff?.message} {...form.register('staff')} />
      <label className="choice">
        <input type="checkbox" {...form.register('active')} /> {messages.dropPointActiveLabel}
      </label>
      <FormError message={serverSummary(errors)} />
      <div className="card-actions">
        <button type="submit" className="button primary" disabled={isSubmitting}>
          {messages.dropPointSave}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {messages.cancelButton}
        </button>
      </div>
    </form>
  );
}

/** 'Átvételi pontok' (issue 28): the back office's partner places, their hours and staff. */
export function DropPointsPage() {
  const points = useAdminDropPoints();
  const [editing, setEditing] = useState<AdminDropPoint | 'new' | null>(null);
  return (
    <section className="page">
      <h1>{messages.dropPointsTitle}</h1>
      {editing === null ? (
        <button type="button" className="button primary" onClick={() => setEditing('new')}>
          {messages.dropPointNew}
        </button>
      ) : (
        <DropPointForm point={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />
      )}
      <QueryState query={points} empty={messages.dropPointsEmpty} isEmpty={(data) => data.items.length === 0}>
        {({ items }) => (
          <ul className="parcel-list">
            {items.map((point) => (
              <li key={point.id}>
                <article className="card" aria-label={point.name}>
                  <header>
                    <strong>{point.name}</strong> · {dropPointKindLabels[point.kind]}
                    {!point.active && <span className="muted"> · {messages.dropPointInactive}</span>}
                  </header>
                  <p>{point.address}</p>
                  <p className="muted">
                    {point.openingHours} · {point.openNow ? messages.dropPointOpenNow : messages.dropPointClosedNow}
                  </p>
                  <p className="muted">
                    {messages.dropPointStaffLabel}: {point.staff.join(', ') || '—'}
                  </p>
                  <button type="button" className="button" onClick={() => setEditing(point)}>
                    {messages.dropPointEdit}
                  </button>
                </article>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
