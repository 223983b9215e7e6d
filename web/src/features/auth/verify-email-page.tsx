import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { useEffect, useRef } from 'react';
import { errorMessage } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { Link, useLocation } from '../../lib/router.tsx';
import { useVerifyEmail } from './api.ts';

/**
 * The verification mail's link (issue 29): `/EmailMegerosites#token=…` — the token in the fragment,
 * which the browser never sends. The page sends it once as it opens and says what the server
 * answered: the address verified only once the server has confirmed it, else the server's words.
 */
export function VerifyEmailPage() {
  const token = new URLSearchParams(useLocation().hash.replace(/^#/, '')).get('token');
  const verify = useVerifyEmail();
  const { data: account } = useSession();
  const sent = useRef(false);
  const { mutate } = verify;
  // Signed in: the way on to the profile, where the address is shown.
  const profile =
    account?.role === 'user'
      ? paths.userProfile(account.userName)
      : account?.role === 'runner'
        ? paths.runnerProfile(account.userName)
        : null;
  useEffect(() => {
    // Once: a link used twice is refused, and React may run an effect again.
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);
  return (
    <section className="page narrow">
      <h1>{messages.verifyEmailTitle}</h1>
      {!token ? (
        <p className="form-error" role="alert">
          {messages.verifyEmailNoToken}
        </p>
      ) : verify.isSuccess ? (
        <p className="success" role="status">
          {messages.verifyEmailDone(verify.data.email)}
        </p>
      ) : verify.isError ? (
        <p className="form-error" role="alert">
          {errorMessage(verify.error)}
        </p>
      ) : (
        <p role="status">{messages.verifyEmailWorking}</p>
      )}
      {profile && (
        <p>
          <Link to={profile}>{messages.verifyEmailToProfile}</Link>
        </p>
      )}
    </section>
  );
}
