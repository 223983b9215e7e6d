import { formatTimestamp } from '@csomag/domain/format';
import type { MailStatus, MailTemplate } from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import { useOutgoingMail } from '../../api/mail.ts';
import { QueryState } from '../../components/query-state.tsx';

export const mailStatusLabels: Record<MailStatus, string> = {
  pending: messages.mailStatusPending,
  sent: messages.mailStatusSent,
  failed: messages.mailStatusFailed,
};

const templateLabels: Record<MailTemplate, string> = {
  password_reset: messages.mailTemplatePasswordReset,
  email_verification: messages.mailTemplateEmailVerification,
  email_changed: messages.mailTemplateEmailChanged,
  receiver_coming: messages.mailTemplateReceiver(messages.mailTemplateComing),
  receiver_picked_up: messages.mailTemplateReceiver(messages.mailKindPickedUp),
  receiver_near: messages.mailTemplateReceiver(messages.mailTemplateNear),
  receiver_attempted: messages.mailTemplateReceiver(messages.mailKindAttempted),
  receiver_with_neighbour: messages.mailTemplateReceiver(messages.mailTemplateWithNeighbour),
  receiver_at_drop_point: messages.mailTemplateReceiver(messages.mailTemplateAtDropPoint),
  receiver_delivered: messages.mailTemplateReceiver(messages.mailTemplateDelivered),
  sender_picked_up: messages.mailTemplateSender(messages.mailKindPickedUp),
  sender_attempted: messages.mailTemplateSender(messages.mailKindAttempted),
  sender_delivered: messages.mailTemplateSender(messages.mailTemplateDelivered),
  sender_reported: messages.mailTemplateSender(messages.mailKindReported),
};

/**
 * 'Kimenő levelek' (issue 29): what went out, waits or failed; without an SMTP server, the .eml
 * file each was written to, so a self-hoster sees exactly what would have been sent.
 */
export function MailPage() {
  const mail = useOutgoingMail();
  return (
    <section className="page">
      <h1>{messages.mailOutboxTitle}</h1>
      <QueryState query={mail}>
        {({ transport, items }) => (
          <>
            <p className="muted">{transport === 'smtp' ? messages.mailOutboxViaSmtp : messages.mailOutboxViaFiles}</p>
            {items.length === 0 ? (
              <p>{messages.mailOutboxEmpty}</p>
            ) : (
              <ul className="parcel-list">
                {items.map((item) => (
                  <li key={item.id}>
                    <article className="card" aria-label={item.subject}>
                      <header>
                        <strong>{templateLabels[item.template]}</strong> · {mailStatusLabels[item.status]}
                      </header>
                      <p>
                        {item.to} · {formatTimestamp(item.sentAt ?? item.createdAt)}
                      </p>
                      <p className="muted">{item.subject}</p>
                      {item.attempts > 1 && <p className="muted">{messages.mailOutboxAttempts(item.attempts)}</p>}
                      {item.lastError && <p className="muted">{messages.mailOutboxError(item.lastError)}</p>}
                      {item.fileName && <p className="mono">{messages.mailOutboxFile(item.fileName)}</p>}
                    </article>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
