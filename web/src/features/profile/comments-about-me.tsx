import { messages } from '@csomag/domain/messages';
import { RatingComment } from '../../components/ratings/rating-comment.tsx';
import { RatingCommentList } from '../../components/ratings/rating-comment-list.tsx';
import { useCommentsAboutMe } from './api.ts';

/**
 * 'Rólad írták' on the runner's profile (ADR 0025): what senders and receivers wrote about their
 * deliveries, newest first — only what the back office has not hidden, and never who wrote it.
 */
export function CommentsAboutMe({ userName }: { userName: string }) {
  const query = useCommentsAboutMe(userName);
  return (
    <section className="card comments-about-me" aria-labelledby="comments-about-me-title">
      <h2 id="comments-about-me-title">{messages.ratingCommentsAboutMeTitle}</h2>
      <p className="muted">{messages.ratingCommentsAboutMeIntro}</p>
      <RatingCommentList query={query} empty={messages.ratingCommentsAboutMeEmpty}>
        {(comment) => <RatingComment stars={comment.stars} createdAt={comment.createdAt} comment={comment.comment} />}
      </RatingCommentList>
    </section>
  );
}
