import {
  INCIDENT_KINDS,
  INCIDENT_PHOTOS_MAX,
  type IncidentBody,
  type IncidentKind,
  incidentBodySchema,
  incidentKindLabels,
} from '@csomag/domain/incidents';
import { messages } from '@csomag/domain/messages';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useReportIncident } from '../api/incidents.ts';
import { FormError, SelectField, TextAreaField } from './form-field.tsx';
import { requestResolver } from './form-resolver.ts';
import { applyServerErrors, serverSummary } from './use-server-errors.ts';

/** As it is filled in: no kind chosen yet is the empty option. */
interface Fields {
  kind: IncidentKind | '';
  description: string;
}

/**
 * 'Probléma bejelentése' (issue 28): the parcel is damaged or lost — what happened, with photos if
 * the reporter (its runner, or the drop point's staff) takes any. Checked with the server's schema first; the back office decides what
 * becomes of it; said once the server has it.
 */
export function IncidentForm({ parcelId, onDone }: { parcelId: string; onDone: () => void }) {
  const report = useReportIncident();
  const form = useForm<Fields, unknown, IncidentBody>({
    resolver: requestResolver(incidentBodySchema),
    defaultValues: { kind: '', description: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const [photos, setPhotos] = useState<File[]>([]);
  const submit = form.handleSubmit(async (body) => {
    try {
      await report.mutateAsync({ parcelId, ...body, photos });
      onDone();
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form" onSubmit={submit} noValidate aria-label={messages.incidentReportTitle}>
      <h3>{messages.incidentReportTitle}</h3>
      <SelectField
        label={messages.incidentKindLabel}
        placeholder={messages.incidentKindInvalid}
        options={INCIDENT_KINDS}
        labels={incidentKindLabels}
        error={errors.kind?.message}
        {...form.register('kind')}
      />
      <TextAreaField
        label={messages.incidentDescriptionLabel}
        error={errors.description?.message ?? null}
        {...form.register('description')}
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
      <FormError message={serverSummary(errors)} />
      <div className="card-actions">
        <button type="submit" className="button danger" disabled={isSubmitting}>
          {messages.incidentReportSubmit}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {messages.cancelButton}
        </button>
      </div>
    </form>
  );
}
