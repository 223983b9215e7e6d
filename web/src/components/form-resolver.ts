import { toNestErrors } from '@hookform/resolvers';
import type { FieldError, FieldValues, Resolver, ResolverError, ResolverOptions } from 'react-hook-form';
import type { z } from 'zod';

/*
 * For react-hook-form forms whose fields are what a person edits — an address or a point on the
 * map, a local time — rather than what the server takes (zodResolver fits the others): their
 * resolver builds the request from the fields and checks it with the domain's schema, the one the
 * server checks it with, so a refusal reads the same before anything is sent as after.
 */

/** A refusal of a form's request: the path the domain's schema (or the form itself) names, and its words. */
export interface FieldIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** What a domain schema refuses of a request; nothing while there is no request to check yet. */
export function schemaIssues<S extends z.ZodType>(schema: S, request: z.input<S> | null): readonly FieldIssue[] {
  return request === null ? [] : (schema.safeParse(request).error?.issues ?? []);
}

/**
 * A resolver's refusal, shown as the server's are (use-server-errors.ts): each issue beside the
 * field its path starts with ('place.lat' beside 'place'), the first per field; an issue that names
 * no field in the form's summary.
 */
export function refused<F extends FieldValues>(
  issues: readonly FieldIssue[],
  options: ResolverOptions<F>,
): ResolverError<F> {
  const errors: Record<string, FieldError> = {};
  for (const { path, message } of issues) {
    errors[path.length === 0 ? 'root.server' : String(path[0])] ??= { type: 'domain', message };
  }
  return { values: {}, errors: toNestErrors(errors, options) };
}

/**
 * A resolver that builds the request from the fields (`toRequest`, the fields themselves when they
 * are the request but for an unchosen option) and checks it with the domain's schema.
 */
export function requestResolver<F extends FieldValues, S extends z.ZodType>(
  schema: S,
  toRequest: (fields: F) => unknown = (fields) => fields,
): Resolver<F, unknown, z.output<S>> {
  return (fields, _context, options) => {
    const checked = schema.safeParse(toRequest(fields));
    return checked.success ? { values: checked.data, errors: {} } : refused(checked.error.issues, options);
  };
}
