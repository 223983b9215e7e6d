import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../api/client.ts';

/** Puts the server's per-field messages beside their fields; returns the message for the form. */
export function applyServerErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>): void {
  if (!(error instanceof ApiError)) return;
  for (const [field, message] of Object.entries(error.fields)) {
    setError(field as Path<T>, { type: 'server', message });
  }
}
