import { MIN_EMAIL_LENGTH, MIN_PASSWORD_LENGTH } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import { paths, roleHome } from '@csomag/domain/paths';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useSession } from '../../api/session.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { serverErrors } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { Link, Navigate, useLocation, useNavigate } from '../../lib/router.tsx';
import { useSignIn } from './api.ts';

/** SPEC §2.3 and §5: one form for every role; SPEC's warnings shown as the fields' errors. */
export function LoginPage() {
  const { data: account, isPending } = useSession();
  const signIn = useSignIn();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from;
  // Shown the way every form shows a refusal (serverErrors); no react-hook-form on this page, which
  // strangers open from the landing page (docs/decisions/0008-small-first-download.md).
  const [refusal, setRefusal] = useState<ReturnType<typeof serverErrors> | null>(null);
  // SPEC §5's own words for a value too short to be right, shown as the field's error.
  const [tooShort, setTooShort] = useState<{ email?: string; password?: string }>({});
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
    // SPEC §5: a value too short to be right is said beside its field (both at once); the server is not asked.
    const emailOk = email.trim().length >= MIN_EMAIL_LENGTH;
    const passwordOk = password.length >= MIN_PASSWORD_LENGTH;
    setTooShort({
      ...(emailOk ? {} : { email: messages.emailTooShort }),
      ...(passwordOk ? {} : { password: messages.passwordTooShort }),
    });
    if (!emailOk || !passwordOk) {
      setRefusal(null);
      (emailOk ? passwordField : emailField).focus();
      return;
    }
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

  // A field's error goes once the field is edited: what it said may no longer be true.
  const forget = (field: 'email' | 'password') => {
    if (tooShort[field]) setTooShort(({ [field]: _, ...rest }) => rest);
    if (refusal?.fields[field]) setRefusal(null);
  };

  return (
    <section className="page narrow">
      <h1>{messages.signInTitle}</h1>
      <form className="form card" onSubmit={onSubmit} noValidate>
        <FormField
          label={messages.emailLabel}
          type="email"
          autoComplete="email"
          name="email"
          error={tooShort.email ?? refusal?.fields.email}
          onChange={() => forget('email')}
        />
        <FormField
          label={messages.passwordLabel}
          type="password"
          autoComplete="current-password"
          name="password"
          error={tooShort.password ?? refusal?.fields.password}
          onChange={() => forget('password')}
        />
        <FormError message={refusal?.summary ?? null} />
        <SubmitButton busy={signIn.isPending}>{messages.signInSubmit}</SubmitButton>
      </form>
      <p>
        <Link to={paths.forgotPassword}>{messages.forgotPasswordLink}</Link>
      </p>
      <p className="muted">
        {messages.signInNoAccount} <Link to={paths.registerUser}>{messages.registerAsUser}</Link> {messages.signInOr}{' '}
        <Link to={paths.registerRunner}>{messages.signInRegisterAsRunner}</Link>.
      </p>
    </section>
  );
}
