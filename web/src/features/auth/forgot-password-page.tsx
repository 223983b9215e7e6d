import { type PasswordResetRequest, passwordResetRequestSchema } from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { Link } from '../../lib/router.tsx';
import { useRequestPasswordReset } from './api.ts';

/**
 * 'Elfelejtett jelszó' (issue 29): the address to send a link to. What it says after is the same
 * for an address with an account and without one: nobody learns from it who has an account.
 */
export function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  const form = useForm<PasswordResetRequest>({
    resolver: zodResolver(passwordResetRequestSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (body) => {
    try {
      await request.mutateAsync(body);
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <section className="page narrow">
      <h1>{messages.forgotPasswordTitle}</h1>
      {request.isSuccess ? (
        <p className="success" role="status">
          {messages.forgotPasswordSent}
        </p>
      ) : (
        <form className="form card" onSubmit={submit} noValidate aria-label={messages.forgotPasswordTitle}>
          <p className="muted">{messages.forgotPasswordIntro}</p>
          <FormField
            label={messages.emailLabel}
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...form.register('email')}
          />
          <FormError message={serverSummary(errors)} />
          <SubmitButton busy={isSubmitting}>{messages.forgotPasswordSubmit}</SubmitButton>
        </form>
      )}
      <p>
        <Link to={paths.login}>{messages.signInTitle}</Link>
      </p>
    </section>
  );
}
