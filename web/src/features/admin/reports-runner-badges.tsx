import type { Account } from '@csomag/domain/account';
import { messages } from '@csomag/domain/messages';
import { useRunnerFlag } from '../../api/trust.ts';

const SUSPENDED_STYLE = { background: '#fee2e2', color: '#991b1b' };

/** A runner's standing as the back office's list reads it (issue 27): approved, awaiting approval, suspended. */
export function RunnerStandingBadge({ standing }: { standing: NonNullable<Account['standing']> }) {
  if (standing.state === 'suspended') {
    return (
      <span className="status" style={SUSPENDED_STYLE} title={standing.suspendedReason ?? undefined}>
        {messages.badgeSuspended}
      </span>
    );
  }
  if (standing.state === 'awaiting_approval') {
    return <span className="status status-waiting">{messages.badgeAwaitingApproval}</span>;
  }
  return <span className="status status-delivered">{messages.badgeApproved}</span>;
}

/** The runner card's open reports badge in the back office's list (issue 15); the standing comes with the list. */
export function RunnerTrustBadges({ userName }: { userName: string }) {
  const { data: flag } = useRunnerFlag(userName);
  if (!flag) return null;
  return (
    <>
      {flag.openReports > 0 && (
        <span className="status status-waiting" title={messages.openReportsOnRunner(flag.openReports)}>
          {messages.badgeOpenReport}
        </span>
      )}
    </>
  );
}
