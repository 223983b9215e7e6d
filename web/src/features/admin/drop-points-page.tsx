import {
  DROP_POINT_KINDS,
  type DropPointBody,
  type DropPointKind,
  dropPointBodySchema,
  dropPointKindLabels,
} from '@csomag/domain/drop-points';
import { messages } from '@csomag/domain/messages';
import { type FormEvent, useId, useState } from 'react';
import { type AdminDropPoint, useAdminDropPoints, useSaveDropPoint } from '../../api/drop-points.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { serverErrors } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';

interface Fields {
  name: string;
  kind: DropPointKind | '';
  address: string;
  lat: string;
  lng: string;
  openingHours: string;
  staff: string;
  active: boolean;
}

const empty: Fields = { name: '', kind: '', address: '', lat: '', lng: '', openingHours: '', staff: '', active: true };
const fieldsOf = (point: AdminDropPoint): Fields => ({
  name: point.name,
  kind: point.kind,
  address: point.address,
  lat: String(point.location.lat),
  lng: String(point.location.lng),
  openingHours: point.openingHours,
  staff: point.staff.join(', '),
  active: point.active,
});

/** A drop point's form: checked with the server's own schema first, then saved; refusals by field. */
function DropPointForm({ point, onDone }: { point: AdminDropPoint | undefined; onDone: () => void }) {
  const save = useSaveDropPoint();
  const [fields, setFields] = useState<Fields>(point ? fieldsOf(point) : empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const kindId = useId();
  const set = (name: keyof Fields) => (event: { target: { value: string } }) =>
    setFields((all) => ({ ...all, [name]: event.target.value }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = {
      name: fields.name,
      kind: fields.kind,
      address: fields.address,
      location: { lat: Number(fields.lat), lng: Number(fields.lng) },
      openingHours: fields.openingHours,
      staff: fields.staff
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
      active: fields.active,
    };
    const checked = dropPointBodySchema.safeParse(body);
    if (!checked.success) {
      setErrors(Object.fromEntries(checked.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setErrors({});
    setProblem(null);
    try {
      await save.mutateAsync({ id: point?.id, body: checked.data as DropPointBody });
      notify.success(messages.dropPointSaved);
      onDone();
    } catch (error) {
      const refused = serverErrors(error);
      setErrors(refused.fields);
      if (Object.keys(refused.fields).length === 0) setProblem(refused.summary);
    }
  };
  return (
    <form className="form card" onSubmit={submit} noValidate aria-label={messages.dropPointFormTitle}>
      <FormField label={messages.dropPointNameLabel} value={fields.name} onChange={set('name')} error={errors.name} />
      <div className="field">
        <label htmlFor={kindId}>{messages.dropPointKindLabel}</label>
        <select id={kindId} value={fields.kind} onChange={set('kind')}>
          <option value="" disabled>
            {messages.dropPointKindInvalid}
          </option>
          {DROP_POINT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {dropPointKindLabels[kind]}
            </option>
          ))}
        </select>
        {errors.kind && <p className="field-error">{errors.kind}</p>}
      </div>
      <FormField
        label={messages.dropPointAddressLabel}
        value={fields.address}
        onChange={set('address')}
        error={errors.address}
      />
      <FormField
        label={messages.dropPointLatLabel}
        inputMode="decimal"
        value={fields.lat}
        onChange={set('lat')}
        error={errors.location}
      />
      <FormField label={messages.dropPointLngLabel} inputMode="decimal" value={fields.lng} onChange={set('lng')} />
      <FormField
        label={messages.dropPointHoursLabel}
        value={fields.openingHours}
        onChange={set('openingHours')}
        error={errors.openingHours}
        hint={messages.openingHoursInvalid}
      />
      <FormField
        label={messages.dropPointStaffLabel}
        value={fields.staff}
        onChange={set('staff')}
        error={errors.staff}
      />
      <label className="choice">
        <input
          type="checkbox"
          checked={fields.active}
          onChange={(event) => setFields((all) => ({ ...all, active: event.target.checked }))}
        />{' '}
        {messages.dropPointActiveLabel}
      </label>
      <FormError message={problem} />
      <div className="card-actions">
        <button type="submit" className="button primary" disabled={save.isPending}>
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
