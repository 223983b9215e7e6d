import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { ReactNode } from 'react';

/**
 * One comment of a rating: its stars, when it was given and its text, which is rendered as React
 * text — never as HTML, whatever it contains (ADR 0024, 0025). `about` says whose and where (the
 * back office's view), `footer` its state and actions.
 */
export function RatingComment({
  stars,
  createdAt,
  comment,
  about,
  footer,
}: {
  stars: number;
  createdAt: string;
  comment: string;
  about?: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <article className="card rating-comment">
      <header>
        <strong>{messages.ratingCommentStars(stars)}</strong>
        <span className="muted">{formatTimestamp(createdAt)}</span>
      </header>
      {about}
      <p className="rating-comment-text">{comment}</p>
      {footer}
    </article>
  );
}
