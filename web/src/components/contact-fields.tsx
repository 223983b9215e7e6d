import { messages } from '@csomag/domain/messages';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { FormField } from './form-field.tsx';

interface Contact {
  password?: string | undefined;
  phoneNumber?: string | undefined;
  address?: string | undefined;
}

/** The password, phone number and address, as both the new-account and the profile forms ask them. */
export function PasswordAndContactFields<T extends Contact>({
  register,
  errors,
  passwordPlaceholder,
}: {
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  /** Set on edit forms, where an empty password keeps the old one. */
  passwordPlaceholder?: string;
}) {
  // The generic form narrows to the three fields this component owns.
  const own = register as unknown as UseFormRegister<Contact>;
  const ownErrors = errors as FieldErrors<Contact>;
  return (
    <>
      <FormField
        label={messages.passwordLabel}
        type="password"
        autoComplete="new-password"
        placeholder={passwordPlaceholder}
        error={ownErrors.password?.message}
        {...own('password')}
      />
      <FormField
        label={messages.phoneNumberLabel}
        type="tel"
        autoComplete="tel"
        error={ownErrors.phoneNumber?.message}
        {...own('phoneNumber')}
      />
      <FormField
        label={messages.addressLabel}
        autoComplete="street-address"
        error={ownErrors.address?.message}
        {...own('address')}
      />
    </>
  );
}
