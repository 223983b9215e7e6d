import { messages } from '@csomag/domain/messages';
import { useSession } from '../api/session.ts';

/**
 * What a runner's standing keeps them from, said at the top of their dashboard (issue 27): a
 * suspension with the back office's reason, or an approval still awaited. Nothing while approved.
 */
export function RunnerStandingNotice() {
  const { data: account } = useSession();
  const standing = account?.standing;
  if (!standing || standing.state === 'approved') return null;
  return (
    <p className="form-error" role="alert" data-testid="runner-standing-notice">
      {standing.state === 'suspended'
        ? messages.runnerSuspended(standing.suspendedReason ?? '')
        : messages.runnerNotApproved}
    </p>
  );
}
