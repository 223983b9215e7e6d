import {
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

type Props = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  error?: string | undefined;
  /**
   * What the field's value currently means (e.g. where an address's pin is), under it and read with
   * it; announced when it changes. Given (even as null) only by fields that have one.
   */
  hint?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

/**
 * A field's error, inside a live region that is always there: a screen reader announces the error
 * the moment it appears (every field refused at once is said, not only the focused one's).
 */
function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  return (
    <div className="live-region" aria-live="polite">
      {message && (
        <p id={id} className="field-error">
          {message}
        </p>
      )}
    </div>
  );
}

/** A labelled input with its error announced and tied to it for screen readers. */
export function FormField({ label, error, hint, id, ref, ...input }: Props) {
  const generated = useId();
  const inputId = id ?? generated;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        ref={ref}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      <FieldError id={errorId} message={error} />
      {hint !== undefined && (
        <div className="field-live" aria-live="polite">
          {hint && (
            <div id={hintId} className="field-hint">
              {hint}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/** A field's id (given, or made), its error's id, and the control's attributes that tie the two. */
function useFieldIds(id: string | undefined, error: string | null | undefined) {
  const generated = useId();
  const fieldId = id ?? generated;
  const errorId = `${fieldId}-error`;
  return {
    fieldId,
    errorId,
    control: { id: fieldId, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined },
  };
}

/** The same for a text area (a reason, a description, a comment). */
export function TextAreaField({
  label,
  error,
  id,
  ...textarea
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; error?: string | null | undefined }) {
  const { fieldId, errorId, control } = useFieldIds(id, error);
  return (
    <div className="field">
      <label htmlFor={fieldId}>{label}</label>
      <textarea {...control} {...textarea} />
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/**
 * A choice of one of a domain's values (a reason, a kind): nothing chosen yet is the disabled first
 * option, which says what to choose.
 */
export function SelectField<Value extends string>({
  label,
  error,
  placeholder,
  options,
  labels,
  id,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  error?: string | null | undefined;
  placeholder: string;
  options: readonly Value[];
  labels: Record<Value, string>;
  ref?: Ref<HTMLSelectElement>;
}) {
  const { fieldId, errorId, control } = useFieldIds(id, error);
  return (
    <div className="field">
      <label htmlFor={fieldId}>{label}</label>
      <select {...control} {...select}>
        <option value="" disabled>
          {placeholder}
        </option>
        {options.map((option) => (
          <option key={option} value={option}>
            {labels[option]}
          </option>
        ))}
      </select>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
