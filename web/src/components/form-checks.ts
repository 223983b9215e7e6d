/**
 * When a react-hook-form form checks its fields: each once it has been left (onTouched), the error
 * shown a moment later. A tap on the submit button first leaves the field being typed in; shown at
 * once, that field's error would push the button away under the finger, the tap would be lost, and
 * only that one field would be marked. Delayed, the submission marks every field at once (issue 27).
 * A corrected field's error still goes at once.
 */
export const fieldChecks = { mode: 'onTouched', delayError: 400 } as const;
