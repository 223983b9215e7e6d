import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { SUSPEND_REASON_MAX } from '@csomag/domain/trust';
import { useState } from 'react';
import { useRunnerDetail, useRunnerParcelsInTransit, useRunnerTrustAction } from '../../api/trust.ts';
import { TextAreaField } from '../../components/form-field.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { serverErrors } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { Link } from '../../lib/router.tsx';

/** A suspended runner's parcels in transit, each linked to where the back office names a new holder. */
function ParcelsInTransit({ userName }: { userName: string }) {
  const query = useRunnerParcelsInTransit(userName, true);
  return (
    <section aria-labelledby="in-transit-title">
      <h3 id="in-transit-title">{messages.inTransitTitle}</h3>
      <QueryState query={query} empty={messages.inTransitEmpty} isEmpty={(data) => data.items.length === 0}>
        {(data) => (
          <ul>
            {data.items.map((parcel) => (
              <li key={parcel.id}>
                <span className="mono">{parcel.id}</span> · {parcel.senderAddress} → {parcel.receiverAddress}{' '}
                <Link to={paths.adminEditParcel(parcel.id)}>{messages.reassign}</Link>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}

/**
 * The back office's trust in a runner on their edit page (issue 15): approval and suspension beside
 * SPEC's status field, and what a suspended runner still carries.
 */
export function RunnerTrustPanel({ userName }: { userName: string }) {
  const detail = useRunnerDetail(userName);
  const act = useRunnerTrustAction(userName);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);

  const run = (request: Parameters<typeof act.mutateAsync>[0], done: string) =>
    act.mutateAsync(request).then(
      () => {
        setReason('');
        setReasonError(null);
        notify.success(done);
      },
      (error: unknown) => {
        const { fields } = serverErrors(error);
        if (fields.reason) setReasonError(fields.reason);
        else notify.error(error);
      },
    );

  return (
    <section className="card" aria-labelledby="runner-trust-title">
      <h2 id="runner-trust-title">{messages.trustTitle}</h2>
      <QueryState query={detail}>
        {({ trust }) => (
          <>
            <p data-testid="runner-trust-state">
              {trust.approvedAt
                ? messages.trustApproved(formatTimestamp(trust.approvedAt))
                : messages.trustAwaitingApproval}{' '}
              ·{' '}
              {trust.suspendedAt
                ? messages.trustSuspended(formatTimestamp(trust.suspendedAt), trust.suspendedReason ?? '')
                : messages.trustNotSuspended}
            </p>
            {trust.openReports > 0 && (
              <p>
                <Link to={paths.adminReports}>{messages.openReportsOnRunner(trust.openReports)}</Link>
              </p>
            )}
            <div className="card-actions">
              {!trust.approvedAt && (
                <button
                  type="button"
                  className="button primary"
                  disabled={act.isPending}
                  onClick={() => run({ action: 'approve' }, messages.runnerApprovedToast)}
                >
                  {messages.approveRunner}
                </button>
              )}
              {trust.suspendedAt && (
                <button
                  type="button"
                  className="button"
                  disabled={act.isPending}
                  onClick={() => run({ action: 'unsuspend' }, messages.runnerUnsuspendedToast)}
                >
                  {messages.unsuspendRunner}
                </button>
              )}
            </div>
            {!trust.suspendedAt && (
              <form
                noValidate
                onSubmit={(event) => {
                  event.preventDefault();
                  run({ action: 'suspend', reason }, messages.runnerSuspendedToast);
                }}
              >
                <TextAreaField
                  id="suspend-reason"
                  label={messages.suspendReasonLabel}
                  value={reason}
                  maxLength={SUSPEND_REASON_MAX}
                  error={reasonError}
                  onChange={(event) => setReason(event.target.value)}
                />
                <button type="submit" className="button danger" disabled={act.isPending}>
                  {messages.suspendRunner}
                </button>
              </form>
            )}
            {trust.suspendedAt && <ParcelsInTransit userName={userName} />}
          </>
        )}
      </QueryState>
    </section>
  );
}
