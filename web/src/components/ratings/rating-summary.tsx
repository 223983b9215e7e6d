import { messages } from '@csomag/domain/messages';
import type { RatingSummary } from '@csomag/domain/ratings';

/** '★ 4,6 (12 értékelés)', or that nobody has rated yet. */
export const formatRating = (rating: RatingSummary | null | undefined): string =>
  rating ? messages.ratingSummary(rating.average.toFixed(1).replace('.', ','), rating.count) : messages.ratingNone;

/** The shown average with its count, as text (never HTML). */
export function RatingSummaryText({ rating }: { rating: RatingSummary | null | undefined }) {
  return <span className="rating-summary">{formatRating(rating)}</span>;
}
