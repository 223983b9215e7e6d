import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { RATING_COMMENT_MAX, type RaterRole, STARS_MAX, STARS_MIN } from '@csomag/domain/ratings';
import { type FormEvent, useId, useState } from 'react';
import { useParcelRatings, useRateParcel } from '../../api/ratings.ts';
import { FormError, TextAreaField } from '../form-field.tsx';
import { QueryState } from '../query-state.tsx';
import { serverErrors } from '../use-server-errors.ts';

const STAR_CHOICES = Array.from({ length: STARS_MAX - STARS_MIN + 1 }, (_, i) => STARS_MIN + i);

const titleFor = (role: RaterRole | null, ratee: string) =>
  role === 'runner' ? messages.ratingFormTitleSender(ratee) : messages.ratingFormTitleRunner(ratee);

/**
 * 1–5 stars (radio buttons: reachable and announced like any choice) and an optional comment, for
 * the caller's rating of a delivered parcel: their first, or an edit while the server allows one.
 */
export function RatingForm({ parcelId, onClose }: { parcelId: string; onClose?: () => void }) {
  const query = useParcelRatings(parcelId);
  return (
    <QueryState query={query}>
      {(data) => {
        const mine = data.ratings.find((rating) => rating.raterRole === data.role);
        if (!data.ratee || !data.role) return null;
        if (!data.canRate) {
          return (
            <p className="muted">
              {mine ? `${messages.ratingGiven(mine.stars)} · ${messages.ratingLocked}` : messages.ratingLocked}
            </p>
          );
        }
        return (
          <StarsForm
            key={mine?.updatedAt ?? 'new'}
            parcelId={parcelId}
            title={titleFor(data.role, data.ratee)}
            initialStars={mine?.stars ?? null}
            initialComment={mine?.comment ?? ''}
            editableUntil={mine?.editableUntil ?? null}
            onClose={onClose}
          />
        );
      }}
    </QueryState>
  );
}

function StarsForm({
  parcelId,
  title,
  initialStars,
  initialComment,
  editableUntil,
  onClose,
}: {
  parcelId: string;
  title: string;
  initialStars: number | null;
  initialComment: string;
  editableUntil: string | null;
  onClose?: (() => void) | undefined;
}) {
  const id = useId();
  const [stars, setStars] = useState<number | null>(initialStars);
  const [comment, setComment] = useState(initialComment);
  const [problem, setProblem] = useState<string | null>(null);
  const rate = useRateParcel(parcelId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (stars === null) {
      setProblem(messages.ratingPickStars);
      return;
    }
    setProblem(null);
    rate.mutate(
      { stars, comment },
      {
        onError: (error) => {
          const { fields, summary } = serverErrors(error);
          setProblem(summary ?? Object.values(fields).join(' '));
        },
      },
    );
  };
  return (
    <form className="rating-form" onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
      <p id={`${id}-title`}>
        <strong>{title}</strong>
      </p>
      <fieldset>
        <legend>{messages.ratingStarsLegend}</legend>
        <div className="card-actions">
          {STAR_CHOICES.map((value) => (
            <label key={value}>
              <input
                type="radio"
                name={`${id}-stars`}
                value={value}
                checked={stars === value}
                onChange={() => setStars(value)}
              />{' '}
              <span aria-hidden="true">{'★'.repeat(value)}</span>
              <span className="visually-hidden">{messages.ratingStarOption(value)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <TextAreaField
        id={`${id}-comment`}
        label={messages.ratingCommentLabel}
        maxLength={RATING_COMMENT_MAX}
        rows={3}
        value={comment}
        onChange={(event) => setComment(event.target.value)}
      />
      {editableUntil && <p className="muted">{messages.ratingEditableUntil(formatTimestamp(editableUntil))}</p>}
      <FormError message={problem} />
      <div className="card-actions">
        <button className="button primary" type="submit" disabled={rate.isPending}>
          {messages.ratingSave}
        </button>
        {onClose && (
          <button className="button" type="button" onClick={onClose}>
            {messages.ratingClose}
          </button>
        )}
      </div>
    </form>
  );
}
