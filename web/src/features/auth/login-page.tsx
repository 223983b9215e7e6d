import { MIN_EMAIL_LENGTH, MIN_PASSWORD_LENGTH } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import { paths, roleHome } from '@csomag/domain/paths';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { notify } from '../../lib/notify.ts';
import { useSignIn } from './api.ts';

/** SPEC §2.3 and §5: one form for every role, with the original's placeholder warnings. */
export function LoginPage() {
  const { data: account, isPending } = useSession();
  const signIn = useSignIn();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from;
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
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const emailField = event.currentTarget.elements.namedItem('email') as HTMLInputElement;
    const passwordField = event.currentTarget.elements.namedItem('password') as HTMLInputElement;
    const email = emailField.value;
    const password = passwordField.value;
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
    signIn.mutate(
      { email, password },
      {
        onSuccess: ({ account: signedIn }) => navigate(from ?? roleHome[signedIn.role], { replace: true }),
        onError: () => {
          justSignedIn.current = false;
        },
      },
    );
  };

  return (
    <section className="page narrow">
      <h1>Bejelentkezés</h1>
      <form className="form card" onSubmit={onSubmit} noValidate>
        <FormField label="Email" type="email" name="email" autoComplete="email" placeholder={emailPlaceholder} />
        <FormField
          label="Jelszó"
          type="password"
          name="password"
          autoComplete="current-password"
          placeholder={passwordPlaceholder}
        />
        <FormError message={signIn.isError ? errorMessage(signIn.error) : null} />
        <SubmitButton busy={signIn.isPending}>Bejelentkezés</SubmitButton>
      </form>
      <p className="muted">
        Még nincs fiókod? <Link to={paths.registerUser}>Regisztráció felhasználóként</Link> vagy{' '}
        <Link to={paths.registerRunner}>regisztráció futárként</Link>.
      </p>
    </section>
  );
}
