import { MIN_EMAIL_LENGTH, MIN_PASSWORD_LENGTH } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import { paths, roleHome } from '@csomag/domain/paths';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useSession } from '../../api/session.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { serverErrors } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { useSignIn } from './api.ts';

/** SPEC §2.3 and §5: one form for every role, with the original's placeholder warnings. */
export function LoginPage() {
  const { data: account, isPending } = useSession();
  const signIn = useSignIn();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from;
  // Shown the way every form shows a refusal (serverErrors); no react-hook-form on this page, which
  // strangers open from the landing page (docs/decisions/0008-small-first-download.md).
  const [refusal, setRefusal] = useState<ReturnType<typeof serverErrors> | null>(null);
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

  // The fields are read from the form, not kept in state: what someone typed into the page
  // rendered at build time, before its script took over, stays there.
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const emailField = event.currentTarget.elements.namedItem('email') as HTMLInputElement;
    const passwordField = event.currentTarget.elements.namedItem('password') as HTMLInputElement;
    const email = emailField.value;
    const password = passwordField.value;
    // SPEC §5: a value too short to be right is cleared and its placeholder says why; the server is not asked.
    const emailOk = email.trim().length >= MIN_EMAIL_LENGTH;
    const passwordOk = password.length >= MIN_PASSWORD_LENGTH;
    if (!emailOk) {
      emailField.value = '';
      setEmailPlaceholder(messages.emailTooShort);
    }
    if (!passwordOk) {
      passwordField.value = '';
      setPasswordPlaceholder(messages.passwordTooShort);
    }
    if (!emailOk || !passwordOk) return;
    justSignedIn.current = true;
    setRefusal(null);
    try {
      const { account: signedIn } = await signIn.mutateAsync({ email, password });
      navigate(from ?? roleHome[signedIn.role], { replace: true });
    } catch (error) {
      justSignedIn.current = false;
      setRefusal(serverErrors(error));
    }
  };

  return (
    <section className="page narrow">
      <h1>{messages.signInTitle}</h1>
      <form className="form card" onSubmit={onSubmit} noValidate>
        <FormField
          label={messages.emailLabel}
          type="email"
          autoComplete="email"
          placeholder={emailPlaceholder}
          name="email"
          error={refusal?.fields.email}
        />
        <FormField
          label={messages.passwordLabel}
          type="password"
          autoComplete="current-password"
          placeholder={passwordPlaceholder}
          name="password"
          error={refusal?.fields.password}
        />
        <FormError message={refusal?.summary ?? null} />
        <SubmitButton busy={signIn.isPending}>{messages.signInSubmit}</SubmitButton>
      </form>
      <p className="muted">
        {messages.signInNoAccount} <Link to={paths.registerUser}>{messages.registerAsUser}</Link> {messages.signInOr}{' '}
        <Link to={paths.registerRunner}>{messages.signInRegisterAsRunner}</Link>.
      </p>
    </section>
  );
}
