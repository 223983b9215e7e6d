import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import { NOT_RECEIVED_DAYS, REPORT_TEXT_MAX } from '@csomag/domain/trust';
import { useId, useState } from 'react';
import { useReportNotReceived } from '../api/trust.ts';
import { notify } from '../lib/notify.ts';
import { TextAreaField } from './form-field.tsx';
import { serverErrors } from './use-server-errors.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * 'Nem érkezett meg' on a delivered parcel's card, for its sender and its receiver (issue 15):
 * shown within NOT_RECEIVED_DAYS of delivery; the server decides, and says why not.
 */
export function ReportNotReceived({ parcel }: { parcel: Parcel }) {
  const report = useReportNotReceived(parcel.id);
  const [open, setOpen] = useState(false);
  const [description, setDescription] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const id = useId();
  if (parcel.status !== 'delivered' || !parcel.deliveredAt) return null;
  if (Date.now() - Date.parse(parcel.deliveredAt) > NOT_RECEIVED_DAYS * DAY_MS) return null;
  if (sent) return <p className="muted">{messages.notReceivedSent}</p>;
  if (!open) {
    return (
      <div className="card-actions">
        <button type="button" className="button" onClick={() => setOpen(true)}>
          {messages.notReceived}
        </button>
      </div>
    );
  }
  return (
    <form
      noValidate
      aria-label={messages.notReceived}
      onSubmit={(event) => {
        event.preventDefault();
        report.mutateAsync({ description }).then(
          () => {
            setSent(true);
            notify.success(messages.notReceivedSent);
          },
          (error: unknown) => {
            const { fields } = serverErrors(error);
            if (fields.description) setFieldError(fields.description);
            else notify.error(error);
          },
        );
      }}
    >
      <TextAreaField
        id={id}
        label={messages.notReceivedDescriptionLabel}
        value={description}
        maxLength={REPORT_TEXT_MAX}
        error={fieldError}
        onChange={(event) => setDescription(event.target.value)}
      />
      <div className="card-actions">
        <button type="submit" className="button primary" disabled={report.isPending}>
          {messages.notReceivedSubmit}
        </button>
        <button type="button" className="button" onClick={() => setOpen(false)}>
          {messages.notReceivedCancel}
        </button>
      </div>
    </form>
  );
}
