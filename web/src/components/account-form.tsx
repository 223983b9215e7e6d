import { type NewAccount, newAccountSchema } from '@csomag/domain/account';
import { messages } from '@csomag/domain/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { notify } from '../lib/notify.ts';
import { PasswordAndContactFields } from './contact-fields.tsx';
import { fieldChecks } from './form-checks.ts';
import { FormError, FormField } from './form-field.tsx';
import { SubmitButton } from './submit-button.tsx';
import { applyServerErrors, serverSummary } from './use-server-errors.ts';

/**
 * The six fields of a new account (self-registration and the back office's runner registration),
 * validated by the same schema the server uses; the server's field errors land beside the fields.
 */
export function AccountForm({
  submitLabel,
  onSubmit,
}: {
  submitLabel: string;
  onSubmit: (values: NewAccount) => Promise<unknown>;
}) {
  const form = useForm<NewAccount>({ resolver: zodResolver(newAccountSchema), ...fieldChecks });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form card" onSubmit={submit} noValidate>
      <FormField
        label={messages.nameLabel}
        autoComplete="name"
        error={errors.name?.message}
        {...form.register('name')}
      />
      <FormField
        label={messages.userNameLabel}
        autoComplete="username"
        error={errors.userName?.message}
        {...form.register('userName')}
        onFocus={() => notify.info(messages.useEnglishLetters, 'english-letters')}
      />
      <FormField
        label={messages.emailLabel}
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...form.register('email')}
      />
      <PasswordAndContactFields register={form.register} errors={errors} />
      <FormError message={serverSummary(errors)} />
      <SubmitButton busy={isSubmitting}>{submitLabel}</SubmitButton>
    </form>
  );
}
