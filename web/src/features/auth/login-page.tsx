import { MIN_EMAIL_LENGTH, MIN_PASSWORD_LENGTH } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import { paths, roleHome } from '@csomag/domain/paths';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { Loading } from '../../components/loading.tsx';
import { notify } from '../../lib/notify.ts';
import { useSignIn } from './api.ts';

/** SPEC §2.3 and §5: one form for every role, with the original's placeholder warnings. */
export function LoginPage() {
  const { data: account, isPending } = useSession();
  const signIn = useSignIn();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [emailPlaceholder, setEmailPlaceholder] = useState('');
  const [passwordPlaceholder, setPasswordPlaceholder] = useState('');
  // Set when this page signs someone in, so the "already signed in" notice is for visits only.
  const justSignedIn = useRef(false);
  const alreadySignedIn = !isPending && account && !justSignedIn.current;

  useEffect(() => {
    if (alreadySignedIn) notify.info(messages.alreadySignedIn, 'already-signed-in');
  }, [alreadySignedIn]);

  if (isPending) return <Loading />;
  if (alreadySignedIn) return <Navigate to={roleHome[account.role]} replace />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const emailOk = email.trim().length >= MIN_EMAIL_LENGTH;
    const passwordOk = password.length >= MIN_PASSWORD_LENGTH;
    if (!emailOk) {
      setEmail('');
      setEmailPlaceholder(messages.emailTooShort);
    }
    if (!passwordOk) {
      setPassword('');
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
        <FormField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          placeholder={emailPlaceholder}
          onChange={(event) => setEmail(event.target.value)}
        />
        <FormField
          label="Jelszó"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          placeholder={passwordPlaceholder}
          onChange={(event) => setPassword(event.target.value)}
        />
        <FormError message={signIn.isError ? errorMessage(signIn.error) : null} />
        <button className="button primary" type="submit" disabled={signIn.isPending}>
          Bejelentkezés
        </button>
      </form>
      <p className="muted">
        Még nincs fiókod? <Link to={paths.registerUser}>Regisztráció felhasználóként</Link> vagy{' '}
        <Link to={paths.registerRunner}>regisztráció futárként</Link>.
      </p>
    </section>
  );
}
