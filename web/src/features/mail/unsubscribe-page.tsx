import { senderMailKindLabels } from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import { errorMessage } from '../../api/client.ts';
import { useUnsubscribe } from '../../api/mail.ts';
import { FormError } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { useLocation } from '../../lib/router.tsx';

/**
 * The page behind a message's 'Leiratkozás' link (issue 29): `/Leiratkozas#token=…`. It asks
 * before it stops anything — a mail provider's link scanner opens links too — and says what was
 * switched off once the server has done it. The mail client's own one-click POST needs no page.
 */
export function UnsubscribePage() {
  const token = new URLSearchParams(useLocation().hash.replace(/^#/, '')).get('token');
  const unsubscribe = useUnsubscribe();
  const done = unsubscribe.data;
  return (
    <section className="page narrow">
      <h1>{messages.unsubscribeTitle}</h1>
      {!token ? (
        <p className="form-error" role="alert">
          {messages.mailLinkInvalid}
        </p>
      ) : done ? (
        <p className="success" role="status">
          {done.stopped === 'parcel'
            ? messages.unsubscribedParcel(done.parcelId ?? '')
            : messages.unsubscribedSenderKind(done.kind ? senderMailKindLabels[done.kind] : '')}
        </p>
      ) : (
        <form
          className="form card"
          aria-label={messages.unsubscribeTitle}
          onSubmit={(event) => {
            event.preventDefault();
            unsubscribe.mutate(token);
          }}
        >
          <p>{messages.unsubscribeIntro}</p>
          <FormError message={unsubscribe.isError ? errorMessage(unsubscribe.error) : null} />
          <SubmitButton busy={unsubscribe.isPending}>{messages.unsubscribeSubmit}</SubmitButton>
        </form>
      )}
    </section>
  );
}
