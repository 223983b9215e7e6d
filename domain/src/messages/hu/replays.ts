/** Idempotent writes and the time an action happened (issue 12, docs/decisions/0017). */
export const replays = {
  // the Idempotency-Key header
  idempotencyKeyInvalid: (maxLength: number) =>
    `Érvénytelen Idempotency-Key fejléc: 1–${maxLength} látható ASCII karakter lehet (szóköz nélkül).`,
  idempotencyKeyInFlight: 'Ez a művelet még folyamatban van. Várj egy kicsit, majd próbáld újra.',
  idempotencyKeyReused:
    'Ezt a műveletazonosítót már egy másik kéréshez használtad; egy új művelethez új azonosító kell.',

  // occurredAt: when the runner says it happened
  occurredAtInvalid: 'Az időpont érvénytelen: ISO 8601 dátum és idő kell, időzónával (pl. 2025-05-01T10:15:00+02:00).',
  occurredAtInFuture: 'Az időpont nem lehet a jövőben.',
  occurredAtTooOld: (hours: number) => `Az időpont legfeljebb ${hours} órával lehet korábbi a mostaninál.`,

  // a timeline step sent later: the person's time is shown, the server's beside it
  eventReceivedAt: (time: string) => `— kapcsolat nélkül rögzítve, elküldve: ${time}`,

  // location batches
  locationBatchEmpty: 'Legalább egy helyzetet küldj.',
  locationBatchTooLarge: (max: number) => `Egyszerre legfeljebb ${max} helyzet küldhető.`,
  locationBatchInvalid: 'A helyzetek listája érvénytelen.',
  locationBatchOrSingle:
    'Vagy egy helyzetet küldj (lat, lng, accuracy), vagy helyzetek listáját (points), a kettőt együtt nem.',
  locationPointTimeRequired: 'A listában minden helyzethez meg kell adni, mikor készült (occurredAt).',
} as const;
