import { attemptReasonLabels } from '@csomag/domain/attempts';
import { formatTimestamp } from '@csomag/domain/format';
import { INCIDENT_DECISIONS, type IncidentDecision, incidentDecisionLabels } from '@csomag/domain/incidents';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { useId, useState } from 'react';
import { incidentPhotoPath, useIncident, useResolveIncident } from '../../api/incidents.ts';
import { TextAreaField } from '../../components/form-field.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { serverErrors } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { Link, useParams } from '../../lib/router.tsx';
import { IncidentCard } from './incidents-page.tsx';
import { ParcelEvidence } from './parcel-evidence.tsx';
import { ParcelMessages } from './parcel-messages.tsx';
import { ParcelProofs } from './parcel-proofs.tsx';

/** The decision, once: carry on, send it back, or write it off — with its reason. */
function DecisionForm({ id }: { id: number }) {
  const resolve = useResolveIncident(id);
  const [decision, setDecision] = useState<IncidentDecision | ''>('');
  const [note, setNote] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const groupId = useId();
  return (
    <form
      noValidate
      className="card"
      aria-label={messages.incidentDecide}
      onSubmit={(event) => {
        event.preventDefault();
        resolve.mutateAsync({ decision: decision as IncidentDecision, note }).then(
          (decided) =>
            notify.success(messages.incidentDecidedToast(incidentDecisionLabels[decided.decision ?? 'continue'])),
          (error: unknown) => {
            const { fields } = serverErrors(error);
            if (Object.keys(fields).length > 0) setFieldErrors(fields);
            else notify.error(error);
          },
        );
      }}
    >
      <fieldset aria-describedby={fieldErrors.decision ? `${groupId}-error` : undefined}>
        <legend>{messages.incidentDecide}</legend>
        {INCIDENT_DECISIONS.map((option) => (
          <label key={option} className="choice">
            <input
              type="radio"
              name="decision"
              value={option}
              checked={decision === option}
              onChange={() => setDecision(option)}
            />{' '}
            {incidentDecisionLabels[option]}
          </label>
        ))}
        {fieldErrors.decision && (
          <p id={`${groupId}-error`} className="field-error">
            {fieldErrors.decision}
          </p>
        )}
      </fieldset>
      <TextAreaField
        label={messages.incidentNoteLabel}
        value={note}
        error={fieldErrors.note ?? null}
        onChange={(event) => setNote(event.target.value)}
      />
      <button type="submit" className="button primary" disabled={resolve.isPending}>
        {messages.incidentDecide}
      </button>
    </form>
  );
}

/**
 * One incident with its photos, the parcel's failed attempts, proofs, mail, timeline and custody
 * chain, and the decision.
 */
export function IncidentPage() {
  const id = useParams().incidentId ?? '';
  const query = useIncident(id);
  return (
    <section className="page narrow">
      <h1>{messages.incidentTitle(id)}</h1>
      <QueryState query={query}>
        {({ incident, parcel, attempts, proofs, messages: mail }) => (
          <>
            <IncidentCard incident={incident} linked={false} />
            {incident.photos.length > 0 && (
              <section className="card" aria-label={messages.incidentPhotos}>
                <h2>{messages.incidentPhotos}</h2>
                {incident.photos.map((number) => (
                  <img
                    key={number}
                    src={incidentPhotoPath(incident.id, number)}
                    alt={messages.incidentPhotoAlt(number)}
                    style={{ maxWidth: '100%' }}
                  />
                ))}
              </section>
            )}
            {!incident.resolvedAt && <DecisionForm id={incident.id} />}
            {parcel && (
              <ParcelEvidence parcel={parcel}>
                {attempts.length > 0 && (
                  <section className="card" aria-label={messages.attemptsTitle}>
                    <h2>{messages.attemptsTitle}</h2>
                    <ol>
                      {attempts.map((attempt) => (
                        <li key={attempt.number}>
                          {messages.attemptLine(attempt.number, attemptReasonLabels[attempt.reason])} ·{' '}
                          {formatTimestamp(attempt.at)}
                        </li>
                      ))}
                    </ol>
                  </section>
                )}
                <ParcelProofs parcelId={parcel.id} proofs={proofs} />
              </ParcelEvidence>
            )}
            {/* Listed for a deleted parcel too: what its people were told stays on record. */}
            <ParcelMessages items={mail} />
            <Link className="button" to={paths.adminIncidents}>
              {messages.adminBack}
            </Link>
          </>
        )}
      </QueryState>
    </section>
  );
}
