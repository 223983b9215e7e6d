import { HANDOVER_PIN_LENGTH } from '@csomag/domain/constants';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../api/client.ts';
import { FormField } from './form-field.tsx';

interface Props {
  label: string;
  /** The form's accessible name, when not its button's. */
  name?: string;
  submitLabel: string;
  /** Sends the code; the server's refusal (a wrong code, how many tries are left) shows under the field. */
  onSubmit: (pin: string) => void;
  pending: boolean;
  error: Error | null;
  /** A code already known (read from a QR code's link): the person only confirms it. */
  initialPin?: string | undefined;
  /** Laid out in one row, beside the card's other actions. */
  inline?: boolean;
  primary?: boolean;
  /** A heading and a hint above the field. */
  children?: ReactNode;
}

/**
 * A hand-over confirmed with a 6-digit code (issue 28): the runner at the door or at a drop point,
 * the staff handing a parcel out, the receiver collecting from a neighbour — one form for all.
 */
export function CodeForm({
  label,
  name,
  submitLabel,
  onSubmit,
  pending,
  error,
  initialPin = '',
  inline = false,
  primary = false,
  children,
}: Props) {
  const [pin, setPin] = useState(initialPin);
  const button = useRef<HTMLButtonElement>(null);
  // Opened from a code's QR link: the filled-in form comes into view, its confirmation focused.
  useEffect(() => {
    if (initialPin) button.current?.focus();
  }, [initialPin]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(pin.trim());
  };
  return (
    <form className={inline ? 'form inline' : 'form'} onSubmit={submit} noValidate aria-label={name ?? submitLabel}>
      {children}
      <FormField
        label={label}
        inputMode="numeric"
        autoComplete="off"
        maxLength={HANDOVER_PIN_LENGTH}
        value={pin}
        onChange={(event) => setPin(event.target.value)}
        error={error ? errorMessage(error) : undefined}
      />
      <button
        ref={button}
        type="submit"
        className={primary ? 'button primary' : 'button'}
        disabled={pending || pin.trim().length === 0}
      >
        {submitLabel}
      </button>
    </form>
  );
}
