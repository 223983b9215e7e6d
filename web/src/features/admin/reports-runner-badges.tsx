import { messages } from '@csomag/domain/messages';
import { useRunnerFlag } from '../../api/trust.ts';

const SUSPENDED_STYLE = { background: '#fee2e2', color: '#991b1b' };

/** The runner card's badges in the back office's list: awaiting approval, suspended, open reports (issue 15). */
export function RunnerTrustBadges({ userName }: { userName: string }) {
  const { data: flag } = useRunnerFlag(userName);
  if (!flag) return null;
  return (
    <>
      {flag.awaitingApproval && <span className="status status-waiting">{messages.badgeAwaitingApproval}</span>}
      {flag.suspended && (
        <span className="status" style={SUSPENDED_STYLE}>
          {messages.badgeSuspended}
        </span>
      )}
      {flag.openReports > 0 && (
        <span className="status status-waiting" title={messages.openReportsOnRunner(flag.openReports)}>
          {messages.badgeOpenReport}
        </span>
      )}
    </>
  );
}
