import {
  type Attempt,
  attemptReasonLabels,
  type NeighbourWishBody,
  neighbourWishBodySchema,
  REDELIVERY_MIN_MINUTES,
  type RedeliveryBody,
  redeliveryBodySchema,
} from '@csomag/domain/attempts';
import { budapestDateTimeInput, formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import {
  hasAttemptsToTell,
  type ReceiverLink,
  useAttemptPhoto,
  useAttempts,
  useRequestNeighbour,
  useRequestRedelivery,
} from '../api/attempts.ts';
import { useSession } from '../api/session.ts';
import { fromBudapestInput } from '../lib/budapest-input.ts';
import { useReceiverLink } from '../lib/code-link.ts';
import { DropPointPicker } from './drop-point-picker.tsx';
import { FormError, FormField } from './form-field.tsx';
import { refused } from './form-resolver.ts';
import { windowText } from './redelivery-window.ts';
import { returnNotice } from './return-notice.ts';
import { applyServerErrors, serverSummary } from './use-server-errors.ts';

type ParcelJourney = Pick<Parcel, 'id' | 'state' | 'attempts' | 'redelivery'>;

/** Who reads and asks: the receiver by the link in their mail (issue 29), else the signed-in account. */
interface AskingAbout {
  parcelId: string;
  receiverLink: ReceiverLink;
}

/** The photo of the door, read with the session (or the receiver's link) into a blob URL (there is no public address). */
function AttemptPhoto({ parcelId, number, sha256, receiverLink }: AskingAbout & { number: number; sha256: string }) {
  const image = useAttemptPhoto(parcelId, number, sha256, receiverLink);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!image.data) return;
    const made = URL.createObjectURL(image.data);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [image.data]);
  if (image.isError) return <p className="error">{messages.proofLoadFailed}</p>;
  return url ? <img src={url} alt={messages.attemptPhotoAlt(number)} /> : null;
}

function AttemptItem({ parcelId, attempt, receiverLink }: AskingAbout & { attempt: Attempt }) {
  const at = attempt.occurredAt ?? attempt.at;
  return (
    <li>
      <strong>{messages.attemptLine(attempt.number, attemptReasonLabels[attempt.reason])}</strong>
      <br />
      <time className="muted" dateTime={at}>
        {messages.attemptAt(formatTimestamp(at))}
      </time>
      {attempt.note && <p>{messages.attemptNoteText(attempt.note)}</p>}
      {attempt.photoSha256 && (
        <AttemptPhoto
          parcelId={parcelId}
          number={attempt.number}
          sha256={attempt.photoSha256}
          receiverLink={receiverLink}
        />
      )}
    </li>
  );
}

/** The window as the person fills it in: datetime-local values, Budapest time. */
interface WindowFields {
  from: string;
  until: string;
}

/** The window the fields make, checked with redeliveryBodySchema, the server's own. */
const windowResolver: Resolver<WindowFields, undefined, RedeliveryBody> = (fields, _context, options) => {
  const checked = redeliveryBodySchema.safeParse({
    from: fromBudapestInput(fields.from),
    until: fromBudapestInput(fields.until),
  });
  return checked.success ? { values: checked.data, errors: {} } : refused(checked.error.issues, options);
};

/** The default window: from the next full hour, for two hours. */
const DEFAULT_WINDOW_HOURS = 2;
function defaultWindow(): WindowFields {
  const start = Math.ceil((Date.now() + REDELIVERY_MIN_MINUTES * 60_000) / 3_600_000) * 3_600_000;
  return {
    from: budapestDateTimeInput(start),
    until: budapestDateTimeInput(start + DEFAULT_WINDOW_HOURS * 3_600_000),
  };
}

/** 'Új időpont kérése': when the receiver (or the sender) will be there; the runner sees it on their card. */
function RedeliveryForm({ parcelId, receiverLink }: AskingAbout) {
  const request = useRequestRedelivery();
  const form = useForm<WindowFields, undefined, RedeliveryBody>({
    resolver: windowResolver,
    defaultValues: defaultWindow(),
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (window) => {
    try {
      await request.mutateAsync({ parcelId, receiverLink, ...window });
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form" onSubmit={submit} noValidate aria-label={messages.redeliverySubmit}>
      <FormField
        label={messages.redeliveryFromLabel}
        type="datetime-local"
        error={errors.from?.message}
        {...form.register('from')}
      />
      <FormField
        label={messages.redeliveryUntilLabel}
        type="datetime-local"
        error={errors.until?.message}
        {...form.register('until')}
      />
      <FormError message={serverSummary(errors)} />
      <div className="card-actions">
        <button type="submit" className="button primary" disabled={isSubmitting}>
          {messages.redeliverySubmit}
        </button>
      </div>
    </form>
  );
}

/** 'Vagy hagyja a szomszédnál': a named neighbour the runner may leave it with next time. */
function NeighbourWishForm({ parcelId, receiverLink }: AskingAbout) {
  const request = useRequestNeighbour();
  const form = useForm<NeighbourWishBody>({
    resolver: zodResolver(neighbourWishBodySchema),
    defaultValues: { name: '', door: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (wish) => {
    try {
      await request.mutateAsync({ parcelId, receiverLink, ...wish });
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form" onSubmit={submit} noValidate aria-label={messages.neighbourWishTitle}>
      <p>
        <strong>{messages.neighbourWishTitle}</strong>
      </p>
      <FormField label={messages.neighbourNameLabel} error={errors.name?.message} {...form.register('name')} />
      <FormField label={messages.neighbourDoorLabel} error={errors.door?.message} {...form.register('door')} />
      <FormError message={serverSummary(errors)} />
      <div className="card-actions">
        <button type="submit" className="button" disabled={isSubmitting}>
          {messages.neighbourWishSubmit}
        </button>
      </div>
    </form>
  );
}

/**
 * When a delivery did not go to plan (issue 28), for the parcel's sender and receiver (and the
 * back office): the failed attempts with their photos, the new time to ask for while it is still
 * theirs to ask, and whether it is on its way back. The receiver without an account does the same
 * through the link in their mail (issue 29). A stranger on the public tracking page reads only the
 * notice: the server refuses them the attempts, and nothing more is shown.
 */
export function AttemptsSection({ parcel }: { parcel: ParcelJourney }) {
  const { data: account } = useSession();
  const receiverLink = useReceiverLink(parcel.id);
  const titleId = useId();
  // A runner reads the attempts on their own card; here they are the parties'.
  const party = Boolean(receiverLink) || (Boolean(account) && account?.role !== 'runner');
  const mayRead = party && hasAttemptsToTell(parcel.state);
  const attempts = useAttempts(parcel, mayRead, receiverLink);
  const items = mayRead ? (attempts.data?.items ?? []) : [];
  const returnAfter = attempts.data?.returnAfter ?? 1;
  const notice = returnNotice(parcel.state);
  if (!notice && items.length === 0) return null;
  return (
    <section className="attempts" aria-labelledby={items.length > 0 ? titleId : undefined}>
      {notice && (
        <p className="notice">
          <strong>{notice}</strong>
        </p>
      )}
      {items.length > 0 && (
        <>
          <h3 id={titleId}>{messages.attemptsTitle}</h3>
          <ol>
            {items.map((attempt) => (
              <AttemptItem key={attempt.number} parcelId={parcel.id} attempt={attempt} receiverLink={receiverLink} />
            ))}
          </ol>
        </>
      )}
      {parcel.state === 'attempted' && items.length > 0 && (
        <>
          <p>
            <strong>{messages.attemptWhatNow}</strong>
          </p>
          <p className="muted">{messages.attemptsLeft(Math.max(1, returnAfter - parcel.attempts))}</p>
          {parcel.redelivery && <p>{messages.redeliveryWindow(windowText(parcel.redelivery))}</p>}
          <RedeliveryForm parcelId={parcel.id} receiverLink={receiverLink} />
          <NeighbourWishForm parcelId={parcel.id} receiverLink={receiverLink} />
          <DropPointPicker
            parcelId={parcel.id}
            receiverLink={receiverLink}
            label={messages.dropPointChoiceTitle}
            title={
              <p>
                <strong>{messages.dropPointChoiceTitle}</strong>
              </p>
            }
          />
        </>
      )}
    </section>
  );
}
