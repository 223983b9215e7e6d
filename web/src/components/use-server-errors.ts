import type { FieldErrors, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessage } from '../api/client.ts';

/**
 * The field a refusal belongs to: the one the person edits, its path's first segment ('from.lat'
 * is the trip's 'from', 'weekdays.2' its 'weekdays'). The server names fields as the domain
 * schema the form uses does.
 */
const fieldOf = (path: string) => path.split('.')[0] ?? path;

/**
 * A failed submission split the one way every form shows it: each of the server's field errors
 * beside its field (the first for a field), and an error that names no field in the form's summary.
 */
export function serverErrors(error: unknown): { fields: Record<string, string>; summary: string | null } {
  const fields: Record<string, string> = {};
  const named = error instanceof ApiError ? error.fields : {};
  for (const [name, message] of Object.entries(named)) fields[fieldOf(name)] ??= message;
  return { fields, summary: Object.keys(fields).length === 0 ? errorMessage(error) : null };
}

/**
 * serverErrors for a react-hook-form form: the summary goes to `serverSummary`. react-hook-form
 * drops them all when the form is submitted again, and a field's own when that field is edited.
 */
export function applyServerErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>): void {
  const { fields, summary } = serverErrors(error);
  for (const [field, message] of Object.entries(fields)) setError(field as Path<T>, { type: 'server', message });
  if (summary !== null) setError('root.server', { type: 'server', message: summary });
}

/** The error of a form's last submission that belongs to none of its fields. */
export const serverSummary = (errors: FieldErrors) => errors.root?.server?.message;
