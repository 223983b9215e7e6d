import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { type BackOfficeComment, type HideCommentBody, hideCommentBodySchema } from '@csomag/domain/rating-comments';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormError, FormField } from '../../components/form-field.tsx';
import { RatingComment } from '../../components/ratings/rating-comment.tsx';
import { RatingCommentList } from '../../components/ratings/rating-comment-list.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { Link } from '../../lib/router.tsx';
import { useHideComment, useRunnerComments, useShowComment } from './api.ts';

/** 'Elrejtés': the reason is asked for first; the toast only once the server has recorded the hide. */
function HideForm({ userName, ratingId, onClose }: { userName: string; ratingId: number; onClose: () => void }) {
  const hide = useHideComment(userName);
  const form = useForm<HideCommentBody>({
    resolver: zodResolver(hideCommentBodySchema),
    mode: 'onTouched',
    defaultValues: { reason: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (body) => {
    try {
      await hide.mutateAsync({ ratingId, body });
      notify.success(messages.ratingCommentHiddenToast);
      onClose();
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <FormField
        label={messages.ratingHideReasonLabel}
        error={errors.reason?.message}
        autoComplete="off"
        {...form.register('reason')}
      />
      <FormError message={serverSummary(errors)} />
      <div className="card-actions">
        <SubmitButton busy={isSubmitting}>{messages.ratingCommentHide}</SubmitButton>
        <button type="button" className="button" onClick={onClose}>
          {messages.ratingCommentCancel}
        </button>
      </div>
    </form>
  );
}

/** Whether the runner sees the comment, and who decided so last. */
function ModerationState({ comment }: { comment: BackOfficeComment }) {
  const deleted = messages.ratingCommentDeletedRater;
  if (comment.hidden) {
    return (
      <p className="form-error">
        {messages.ratingCommentHiddenState(
          comment.hidden.by ?? deleted,
          formatTimestamp(comment.hidden.at),
          comment.hidden.reason,
        )}
      </p>
    );
  }
  const last = comment.moderation.at(-1);
  if (last?.action !== 'show') return null;
  return <p className="muted">{messages.ratingCommentShownAgainState(last.by ?? deleted, formatTimestamp(last.at))}</p>;
}

function CommentCard({ userName, comment }: { userName: string; comment: BackOfficeComment }) {
  const [hiding, setHiding] = useState(false);
  const show = useShowComment(userName);
  const showAgain = () =>
    show.mutateAsync(comment.id).then(
      () => notify.success(messages.ratingCommentShownToast),
      (error: unknown) => notify.error(error),
    );
  const role = comment.raterRole === 'sender' ? messages.ratingRaterSender : messages.ratingRaterReceiver;
  return (
    <RatingComment
      stars={comment.stars}
      createdAt={comment.createdAt}
      comment={comment.comment}
      about={
        <p>
          {messages.ratingCommentParcel}:{' '}
          <Link className="mono" to={paths.adminEditParcel(comment.parcelId)}>
            {comment.parcelId}
          </Link>{' '}
          · {messages.ratingCommentRater}:{' '}
          <strong>{messages.ratingCommentBy(comment.rater ?? messages.ratingCommentDeletedRater, role)}</strong>
        </p>
      }
      footer={
        <>
          <ModerationState comment={comment} />
          {comment.hidden ? (
            <div className="card-actions">
              <button type="button" className="button" disabled={show.isPending} onClick={showAgain}>
                {messages.ratingCommentShow}
              </button>
            </div>
          ) : hiding ? (
            <HideForm userName={userName} ratingId={comment.id} onClose={() => setHiding(false)} />
          ) : (
            <div className="card-actions">
              <button type="button" className="button danger" onClick={() => setHiding(true)}>
                {messages.ratingCommentHide}
              </button>
            </div>
          )}
        </>
      }
    />
  );
}

/**
 * The comments senders and receivers wrote about the runner, on their edit page (ADR 0025): each with
 * its parcel and rater; an abusive one is hidden from the runner with a reason, and can be shown again.
 */
export function RunnerComments({ userName }: { userName: string }) {
  const query = useRunnerComments(userName);
  return (
    <section className="card" aria-labelledby="runner-comments-title">
      <h2 id="runner-comments-title">{messages.ratingCommentsTitle}</h2>
      <p className="muted">{messages.ratingCommentsIntro}</p>
      <RatingCommentList query={query} empty={messages.ratingCommentsEmpty}>
        {(comment) => <CommentCard userName={userName} comment={comment} />}
      </RatingCommentList>
    </section>
  );
}
