import type { FieldErrors, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessage } from '../api/client.ts';

/**
 * Puts a failed submission's errors where they belong: each of the server's field errors beside its
 * field (the server names fields as the domain schema the form uses does), and an error that names
 * no field in the form's summary (`serverSummary`). react-hook-form drops them all when the form is
 * submitted again, and a field's own when that field is edited.
 */
export function applyServerErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>): void {
  const fields = error instanceof ApiError ? Object.entries(error.fields) : [];
  for (const [field, message] of fields) setError(field as Path<T>, { type: 'server', message });
  if (fields.length === 0) setError('root.server', { type: 'server', message: errorMessage(error) });
}

/** The error of a form's last submission that belongs to none of its fields. */
export const serverSummary = (errors: FieldErrors) => errors.root?.server?.message;
