import { INCIDENT_KINDS, INCIDENT_PHOTOS_MAX, type IncidentKind, incidentKindLabels } from '@csomag/domain/incidents';
import { messages } from '@csomag/domain/messages';
import { type FormEvent, useId, useState } from 'react';
import { FormError, TextAreaField } from '../../components/form-field.tsx';
import { serverErrors } from '../../components/use-server-errors.ts';
import { useReportIncident } from './api.ts';

/**
 * 'Probléma bejelentése' (issue 28): the parcel is damaged or lost — what happened, with photos if
 * the runner takes any. The back office decides what becomes of it; said once the server has it.
 */
export function IncidentForm({ parcelId, onDone }: { parcelId: string; onDone: () => void }) {
  const report = useReportIncident();
  const [kind, setKind] = useState<IncidentKind | ''>('');
  const [description, setDescription] = useState('');
  const [photos, setPhotos] = useState<File[]>([]);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const kindId = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFields({});
    setProblem(null);
    try {
      await report.mutateAsync({ parcelId, kind: kind as IncidentKind, description, photos });
      onDone();
    } catch (error) {
      const refused = serverErrors(error);
      setFields(refused.fields);
      if (Object.keys(refused.fields).length === 0) setProblem(refused.summary);
    }
  };
  return (
    <form className="form" onSubmit={submit} noValidate aria-label={messages.incidentReportTitle}>
      <h3>{messages.incidentReportTitle}</h3>
      <div className="field">
        <label htmlFor={kindId}>{messages.incidentKindLabel}</label>
        <select id={kindId} value={kind} onChange={(event) => setKind(event.target.value as IncidentKind)}>
          <option value="" disabled>
            {messages.incidentKindInvalid}
          </option>
          {INCIDENT_KINDS.map((option) => (
            <option key={option} value={option}>
              {incidentKindLabels[option]}
            </option>
          ))}
        </select>
        {fields.kind && <p className="field-error">{fields.kind}</p>}
      </div>
      <TextAreaField
        label={messages.incidentDescriptionLabel}
        value={description}
        error={fields.description ?? null}
        onChange={(event) => setDescription(event.target.value)}
      />
      <label className="field">
        <span>{messages.incidentPhotosLabel}</span>
        <input
          type="file"
          accept="image/*"
          multiple
          onChange={(event) => setPhotos([...(event.target.files ?? [])].slice(0, INCIDENT_PHOTOS_MAX))}
        />
      </label>
      <FormError message={problem} />
      <div className="card-actions">
        <button type="submit" className="button danger" disabled={report.isPending}>
          {messages.incidentReportSubmit}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {messages.cancelButton}
        </button>
      </div>
    </form>
  );
}
