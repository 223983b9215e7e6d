import { formatTimestamp } from '@csomag/domain/format';
import { mailStatusOf, type ParcelMessage } from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import { useId } from 'react';
import { Empty } from '../../components/query-state.tsx';
import { mailStatusLabels } from './mail-page.tsx';

/** The mail written about a parcel, newest first: to whom, what, when, and whether it went out. */
export function ParcelMessages({ items }: { items: readonly ParcelMessage[] }) {
  const titleId = useId();
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{messages.adminParcelMessagesTitle}</h2>
      {items.length === 0 ? (
        <Empty text={messages.adminParcelMessagesNone} />
      ) : (
        <ul>
          {items.map((item) => {
            const outcomeAt = item.sentAt ?? item.failedAt;
            return (
              <li key={item.id}>
                <strong>{item.subject}</strong>
                <p>{messages.adminParcelMessageTo(item.to)}</p>
                <p className="muted">
                  {messages.adminParcelMessageWritten(formatTimestamp(item.createdAt))} ·{' '}
                  {mailStatusLabels[mailStatusOf(item)]}
                  {outcomeAt && ` ${formatTimestamp(outcomeAt)}`}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
