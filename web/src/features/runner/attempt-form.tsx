import { ATTEMPT_REASONS, type AttemptReason, attemptBodySchema, attemptReasonLabels } from '@csomag/domain/attempts';
import { messages } from '@csomag/domain/messages';
import { useEffect, useId, useRef, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { errorMessage } from '../../api/client.ts';
import { FormError, SelectField, TextAreaField } from '../../components/form-field.tsx';
import { refused, schemaIssues } from '../../components/form-resolver.ts';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { currentPosition } from '../../lib/geolocation.ts';
import { scalePhoto } from '../../lib/scale-photo.ts';
import { isQueued } from '../../offline/outbox.ts';
import { useFailDelivery } from './api.ts';

/** The attempt as the runner fills it in; the position is read when it is sent. */
interface AttemptFields {
  reason: AttemptReason | '';
  note: string;
}

/** Stands in for the position while the fields are checked: the phone is asked only on sending. */
const POSITION_READ_ON_SENDING = { lat: 47.5, lng: 19.05, accuracy: 1 };

/** The fields checked with attemptBodySchema, the server's own (a reason; a few words for 'Egyéb'). */
const attemptResolver: Resolver<AttemptFields> = (fields, _context, options) => {
  const issues = schemaIssues(attemptBodySchema, {
    reason: fields.reason as AttemptReason,
    note: fields.note,
    position: POSITION_READ_ON_SENDING,
  }).filter((issue) => issue.path[0] !== 'position');
  return issues.length === 0 ? { values: fields, errors: {} } : refused(issues, options);
};

/**
 * The optional photo of the door: scaled here, sent once the attempt is recorded (to its number).
 * `onChoose` gets the scaling under way at once, so a 'Rögzítés' tapped before it ends waits for it
 * rather than going without the photo.
 */
function DoorPhoto({ photo, onChoose }: { photo: Blob | null; onChoose: (photo: Promise<Blob | null>) => void }) {
  const inputId = useId();
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!photo) return setPreview(null);
    const url = URL.createObjectURL(photo);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);
  const choose = async (event: React.ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    // A format this browser cannot draw goes as it is: the server decides from its bytes.
    onChoose(scalePhoto(file).catch(() => file));
  };
  return (
    <div className="proof-capture">
      <label className="button" htmlFor={inputId}>
        {messages.attemptPhotoLabel}
      </label>
      <input
        id={inputId}
        className="visually-hidden"
        type="file"
        accept="image/*"
        capture="environment"
        aria-label={messages.attemptPhotoLabel}
        onChange={choose}
      />
      {preview && (
        <>
          <img className="proof-thumb" src={preview} alt={messages.attemptPhotoPreviewAlt} />
          <button type="button" className="button" onClick={() => onChoose(Promise.resolve(null))}>
            {messages.attemptPhotoRemove}
          </button>
        </>
      )}
    </div>
  );
}

/**
 * 'Nem sikerült kézbesíteni': what happened, a note (needed for 'Egyéb'), a photo of the door if
 * the runner takes one, and where they stand (the server holds them to 15 m of a known door).
 * Told only once the server has recorded it (api.ts).
 */
export function AttemptForm({ parcelId, onDone }: { parcelId: string; onDone: () => void }) {
  const fail = useFailDelivery();
  const [photo, setPhoto] = useState<Blob | null>(null);
  const chosenPhoto = useRef<Promise<Blob | null>>(Promise.resolve(null));
  const choosePhoto = (next: Promise<Blob | null>) => {
    chosenPhoto.current = next;
    void next.then((scaled) => chosenPhoto.current === next && setPhoto(scaled));
  };
  const [locating, setLocating] = useState(false);
  const form = useForm<AttemptFields>({ resolver: attemptResolver, defaultValues: { reason: '', note: '' } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ reason, note }) => {
    setLocating(true);
    const position = await currentPosition()
      .catch((error: unknown) => {
        form.setError('root.server', { type: 'position', message: errorMessage(error) });
      })
      .finally(() => setLocating(false));
    if (!position || !reason) return;
    const chosen = await chosenPhoto.current;
    try {
      await fail.mutateAsync({
        parcelId,
        reason,
        ...(note.trim() ? { note: note.trim() } : {}),
        position,
        photo: chosen,
      });
      onDone();
    } catch (error) {
      // Kept for when the connection returns (the hook says so): done here.
      if (isQueued(error)) onDone();
      else applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form" onSubmit={submit} noValidate aria-label={messages.attemptTitle}>
      <h3>{messages.attemptTitle}</h3>
      <SelectField
        label={messages.attemptReasonLabel}
        placeholder={messages.attemptReasonInvalid}
        options={ATTEMPT_REASONS}
        labels={attemptReasonLabels}
        error={errors.reason?.message}
        {...form.register('reason')}
      />
      <TextAreaField label={messages.attemptNoteLabel} error={errors.note?.message} {...form.register('note')} />
      <DoorPhoto photo={photo} onChoose={choosePhoto} />
      <p className="muted live-region" role="status">
        {locating ? messages.attemptLocating : null}
      </p>
      <FormError message={serverSummary(errors)} />
      <div className="card-actions">
        <button type="submit" className="button primary" disabled={isSubmitting}>
          {messages.attemptSubmit}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {messages.cancelButton}
        </button>
      </div>
    </form>
  );
}
