import type { LoginBody } from '@csomag/domain/account';
import { MIN_EMAIL_LENGTH, MIN_PASSWORD_LENGTH } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import { paths, roleHome } from '@csomag/domain/paths';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useSession } from '../../api/session.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { useSignIn } from './api.ts';

/** SPEC §2.3 and §5: one form for every role, with the original's placeholder warnings. */
export function LoginPage() {
  const { data: account, isPending } = useSession();
  const signIn = useSignIn();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from;
  // No default values: react-hook-form then takes over what someone typed into the page rendered
  // at build time, before its script arrived (docs/decisions/0008-small-first-download.md).
  const form = useForm<LoginBody>();
  const { errors, isSubmitting } = form.formState;
  const [emailPlaceholder, setEmailPlaceholder] = useState('');
  const [passwordPlaceholder, setPasswordPlaceholder] = useState('');
  // Set when this page signs someone in, so the "already signed in" notice is for visits only.
  const justSignedIn = useRef(false);
  const alreadySignedIn = !isPending && account && !justSignedIn.current;

  useEffect(() => {
    if (alreadySignedIn) notify.info(messages.alreadySignedIn, 'already-signed-in');
  }, [alreadySignedIn]);

  // The form shows while the session is still being asked for: it is what nearly everyone here
  // needs, and the page is rendered at build time (signed out).
  if (alreadySignedIn) return <Navigate to={roleHome[account.role]} replace />;

  // SPEC §5: a value too short to be right is cleared and its placeholder says why; the server is not asked.
  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    const emailOk = email.trim().length >= MIN_EMAIL_LENGTH;
    const passwordOk = password.length >= MIN_PASSWORD_LENGTH;
    if (!emailOk) {
      form.setValue('email', '');
      setEmailPlaceholder(messages.emailTooShort);
    }
    if (!passwordOk) {
      form.setValue('password', '');
      setPasswordPlaceholder(messages.passwordTooShort);
    }
    if (!emailOk || !passwordOk) return;
    justSignedIn.current = true;
    try {
      const { account: signedIn } = await signIn.mutateAsync({ email, password });
      navigate(from ?? roleHome[signedIn.role], { replace: true });
    } catch (error) {
      justSignedIn.current = false;
      applyServerErrors(error, form.setError);
    }
  });

  return (
    <section className="page narrow">
      <h1>{messages.signInTitle}</h1>
      <form className="form card" onSubmit={onSubmit} noValidate>
        <FormField
          label={messages.emailLabel}
          type="email"
          autoComplete="email"
          placeholder={emailPlaceholder}
          error={errors.email?.message}
          {...form.register('email')}
        />
        <FormField
          label={messages.passwordLabel}
          type="password"
          autoComplete="current-password"
          placeholder={passwordPlaceholder}
          error={errors.password?.message}
          {...form.register('password')}
        />
        <FormError message={serverSummary(errors)} />
        <SubmitButton busy={isSubmitting}>{messages.signInSubmit}</SubmitButton>
      </form>
      <p className="muted">
        {messages.signInNoAccount} <Link to={paths.registerUser}>{messages.registerAsUser}</Link> {messages.signInOr}{' '}
        <Link to={paths.registerRunner}>{messages.signInRegisterAsRunner}</Link>.
      </p>
    </section>
  );
}
