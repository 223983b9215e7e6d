import { messages } from '@csomag/domain/messages';
import { useId } from 'react';
import { errorMessage } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { FormError } from '../../components/form-field.tsx';
import { notify } from '../../lib/notify.ts';
import { useProfile, useResendEmailVerification } from './api.ts';

/**
 * Email verification on the profile page (issue 29): to the person whose profile it is, while their
 * address is not verified or a new one waits for its link, says so and offers a fresh link. Said
 * sent only once the server has answered; its refusal (too many, nothing to verify) in its words.
 */
export function EmailVerificationNotice({ userName }: { userName: string }) {
  const titleId = useId();
  const { data: session } = useSession();
  const { data: account } = useProfile(userName);
  const resend = useResendEmailVerification();
  if (!account || session?.userName !== account.userName) return null;
  if (account.emailVerified && account.pendingEmail === null) return null;
  const send = async () => {
    try {
      const { email } = await resend.mutateAsync();
      notify.success(messages.emailVerificationResent(email));
    } catch {
      // Said below the button.
    }
  };
  return (
    <section className="card notice" aria-labelledby={titleId}>
      <h2 id={titleId}>{messages.verifyEmailTitle}</h2>
      <p>
        {account.pendingEmail === null
          ? messages.emailUnverifiedNotice(account.email)
          : messages.emailPendingNotice(account.pendingEmail)}
      </p>
      <FormError message={resend.isError ? errorMessage(resend.error) : null} />
      <button type="button" className="button" onClick={send} disabled={resend.isPending}>
        {messages.emailVerificationResend}
      </button>
    </section>
  );
}
