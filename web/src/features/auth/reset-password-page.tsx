import { passwordField } from '@csomag/domain/account';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { Link, useLocation, useNavigate } from '../../lib/router.tsx';
import { useConfirmPasswordReset } from './api.ts';

const formSchema = z.object({ password: passwordField });

/**
 * The emailed link's page (issue 29): `/UjJelszo#token=…` — the token in the fragment, which the
 * browser never sends — and the new password. Said once the server has set it; then sign in.
 */
export function ResetPasswordPage() {
  const token = new URLSearchParams(useLocation().hash.replace(/^#/, '')).get('token');
  const confirm = useConfirmPasswordReset();
  const navigate = useNavigate();
  const form = useForm<z.infer<typeof formSchema>>({
    resolver: zodResolver(formSchema),
    defaultValues: { password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ password }) => {
    try {
      await confirm.mutateAsync({ token: token ?? '', password });
      notify.success(messages.resetPasswordDone);
      navigate(paths.login, { replace: true });
    } catch (error) {
      // The link's fault (used, expired, mistyped) is said above the form, with the way to a new one.
      applyServerErrors(error, form.setError);
    }
  });
  const tokenError = (errors as { token?: { message?: string } }).token?.message;
  return (
    <section className="page narrow">
      <h1>{messages.resetPasswordTitle}</h1>
      {token ? (
        <form className="form card" onSubmit={submit} noValidate aria-label={messages.resetPasswordTitle}>
          <FormError message={tokenError ?? serverSummary(errors) ?? null} />
          <FormField
            label={messages.resetPasswordLabel}
            type="password"
            autoComplete="new-password"
            error={errors.password?.message}
            {...form.register('password')}
          />
          <SubmitButton busy={isSubmitting}>{messages.resetPasswordSubmit}</SubmitButton>
        </form>
      ) : (
        <p className="form-error" role="alert">
          {messages.resetPasswordNoToken}
        </p>
      )}
      <p>
        <Link to={paths.forgotPassword}>{messages.resetAskAgain}</Link>
      </p>
    </section>
  );
}
