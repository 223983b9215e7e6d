/** Ratings of runners and senders (issue 15). */
export const ratings = {
  // validation and server refusals
  ratingStarsInvalid: (min: number, max: number) => `Az értékelés ${min} és ${max} csillag közötti egész szám lehet.`,
  ratingCommentInvalid: 'A megjegyzés szöveg lehet.',
  ratingCommentTooLong: (max: number) => `A megjegyzés legfeljebb ${max} karakter lehet.`,
  ratingNotParty: 'Ezt a csomagot csak a feladója, a címzettje és a kézbesítő futár értékelheti.',
  ratingNotDelivered: 'Értékelni csak a leadás után lehet.',
  ratingNoRatee: 'Nincs kit értékelni: az értékelt fiók már nem létezik.',
  ratingEditClosed: (hours: number) =>
    `Ezt a csomagot már értékelted, és az értékelés ${hours} óra után nem módosítható.`,

  // web
  ratingSummary: (average: string, count: number) => `★ ${average} (${count} értékelés)`,
  ratingNone: 'Még nincs értékelés',
  ratingOpenRunner: 'Futár értékelése',
  ratingOpenSender: 'Feladó értékelése',
  ratingOpenEdit: (stars: number) => `Értékelésed: ${stars} csillag – módosítás`,
  ratingGiven: (stars: number) => `Értékelésed: ${stars} csillag`,
  ratingFormTitleRunner: (runner: string) => `${runner} futár értékelése`,
  ratingFormTitleSender: (sender: string) => `${sender} feladó értékelése`,
  ratingStarsLegend: 'Csillagok',
  ratingStarOption: (stars: number) => `${stars} csillag`,
  ratingCommentLabel: 'Megjegyzés (nem kötelező)',
  ratingSave: 'Értékelés mentése',
  ratingSaved: 'Az értékelés elmentve.',
  ratingEditableUntil: (until: string) => `Eddig módosíthatod: ${until}`,
  ratingLocked: 'Az értékelés már nem módosítható.',
  ratingPickStars: 'Válaszd ki, hány csillagot adsz.',
  ratingClose: 'Bezárás',
  deliveredToRateTitle: 'Leadott csomagjaid',
  deliveredToRateHint: 'Értékeld a feladókat a leadás után.',
  deliveredToRateEmpty: 'Az elmúlt napokban nem adtál le csomagot.',
  trackingRunnerRating: 'A futár értékelése',
  runnerRatingLabel: 'Értékelés',
} as const;
