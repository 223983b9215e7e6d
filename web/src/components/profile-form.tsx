import { type Account, type ProfileUpdate, profileUpdateSchema } from '@csomag/domain/account';
import { messages } from '@csomag/domain/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { notify } from '../lib/notify.ts';
import { PasswordAndContactFields } from './contact-fields.tsx';
import { fieldChecks } from './form-checks.ts';
import { FormError, FormField } from './form-field.tsx';
import { SubmitButton } from './submit-button.tsx';
import { applyServerErrors, serverSummary } from './use-server-errors.ts';

/**
 * Editing an existing account (a user's or runner's own profile, the back office's runner edit):
 * the user name never changes, the password only when a new one is typed, the email only where
 * `emailEditable`. Success is announced once the server has saved.
 */
export function ProfileForm({
  account,
  emailEditable,
  savedMessage,
  onSave,
  actions,
}: {
  account: Account;
  emailEditable: boolean;
  savedMessage: string;
  onSave: (values: ProfileUpdate) => Promise<unknown>;
  actions?: ReactNode;
}) {
  const form = useForm<ProfileUpdate>({
    resolver: zodResolver(profileUpdateSchema),
    ...fieldChecks,
    defaultValues: {
      name: account.name,
      password: '',
      phoneNumber: account.phoneNumber,
      address: account.address,
      ...(emailEditable ? { email: account.email } : {}),
    },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await onSave(values);
      form.resetField('password');
      notify.success(savedMessage);
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form card" onSubmit={onSubmit} noValidate>
      <FormField label={messages.userNameLabel} value={account.userName} disabled readOnly />
      <FormField
        label={messages.nameLabel}
        autoComplete="name"
        error={errors.name?.message}
        {...form.register('name')}
      />
      <PasswordAndContactFields
        register={form.register}
        errors={errors}
        passwordPlaceholder={messages.newPasswordPlaceholder}
      />
      {emailEditable ? (
        <FormField
          label={messages.emailLabel}
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...form.register('email')}
        />
      ) : (
        <FormField label={messages.emailLabel} type="email" value={account.email} readOnly disabled />
      )}
      <FormError message={serverSummary(errors)} />
      <div className="card-actions">
        <SubmitButton busy={isSubmitting}>{messages.saveButton}</SubmitButton>
        {actions}
      </div>
    </form>
  );
}
