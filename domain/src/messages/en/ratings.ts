import type { ratings as hu } from '../hu/ratings.ts';
import type { Translation } from '../translation.ts';

const starCount = (count: number) => `${count} ${count === 1 ? 'star' : 'stars'}`;

/** Ratings of runners and senders (issue 15). */
export const ratings = {
  // validation and server refusals
  ratingStarsInvalid: (min: number, max: number) => `The rating must be a whole number of stars from ${min} to ${max}.`,
  ratingCommentInvalid: 'The comment must be text.',
  ratingCommentTooLong: (max: number) => `The comment can be at most ${max} characters.`,
  ratingNotParty: 'Only the sender, the receiver and the delivering runner can rate this parcel.',
  ratingNotDelivered: 'You can only rate after delivery.',
  ratingNoRatee: 'There is no one to rate: the rated account no longer exists.',
  ratingEditClosed: (hours: number) =>
    `You've already rated this parcel, and a rating can't be changed after ${hours} ${hours === 1 ? 'hour' : 'hours'}.`,
  ratingCommentNotFound: "There is no such comment on a runner's rating.",
  ratingCommentAlreadyHidden: 'This comment is already hidden.',
  ratingCommentNotHidden: "This comment isn't hidden, so there's no need to show it again.",
  ratingHideReasonRequired: 'Give the reason for hiding it.',
  ratingHideReasonTooLong: (max: number) => `The reason for hiding can be at most ${max} characters.`,

  // web
  ratingSummary: (average: string, count: number) => `★ ${average} (${count} ${count === 1 ? 'rating' : 'ratings'})`,
  ratingNone: 'No ratings yet',
  ratingOpenRunner: 'Rate the runner',
  ratingOpenSender: 'Rate the sender',
  ratingOpenEdit: (stars: number) => `Your rating: ${starCount(stars)} – change`,
  ratingGiven: (stars: number) => `Your rating: ${starCount(stars)}`,
  ratingFormTitleRunner: (runner: string) => `Rate runner ${runner}`,
  ratingFormTitleSender: (sender: string) => `Rate sender ${sender}`,
  ratingStarsLegend: 'Stars',
  ratingStarOption: (stars: number) => starCount(stars),
  ratingCommentLabel: 'Comment (optional)',
  ratingSave: 'Save rating',
  ratingSaved: 'Rating saved.',
  ratingEditableUntil: (until: string) => `You can change it until ${until}`,
  ratingLocked: 'The rating can no longer be changed.',
  ratingPickStars: 'Choose how many stars you give.',
  ratingClose: 'Close',
  deliveredToRateTitle: 'Parcels you delivered',
  deliveredToRateHint: 'Rate the senders after delivery.',
  deliveredToRateEmpty: "You haven't delivered any parcels in the last few days.",
  trackingRunnerRating: "The runner's rating",
  runnerRatingLabel: 'Rating',

  // web: the comments about a runner (ADR 0025)
  ratingCommentsTitle: 'Rating comments',
  ratingCommentsIntro:
    "Senders' and receivers' comments about this runner. The runner can't see a hidden comment; its stars still count towards the average.",
  ratingCommentsEmpty: 'No one has commented on this runner yet.',
  ratingCommentsAboutMeTitle: 'What people wrote about you',
  ratingCommentsAboutMeIntro: "Senders' and receivers' comments on your deliveries. We don't show who wrote them.",
  ratingCommentsAboutMeEmpty: 'No one has written a comment about you yet.',
  ratingCommentBy: (rater: string, role: string) => `${rater} (${role})`,
  ratingRaterSender: 'sender',
  ratingRaterReceiver: 'receiver',
  ratingCommentDeletedRater: 'deleted account',
  ratingCommentParcel: 'Parcel',
  ratingCommentRater: 'Rated by',
  ratingCommentStars: (stars: number) => starCount(stars),
  ratingCommentHiddenState: (by: string, at: string, reason: string) => `Hidden (${by}, ${at}): ${reason}`,
  ratingCommentShownAgainState: (by: string, at: string) => `Shown again (${by}, ${at})`,
  ratingCommentHide: 'Hide',
  ratingCommentShow: 'Show',
  ratingCommentCancel: 'Cancel',
  ratingHideReasonLabel: 'Reason for hiding',
  ratingCommentHiddenToast: 'Comment hidden.',
  ratingCommentShownToast: 'The comment is visible again.',
} as const satisfies Translation<typeof hu>;
