import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { ProfileForm } from '../../components/profile-form.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { Link, useParams } from '../../lib/router.tsx';
import { useRunner, useUpdateRunner } from './api.ts';
import { RunnerTrustPanel } from './reports-runner-trust.tsx';
import { RunnerComments } from './runner-comments.tsx';

/** SPEC §2.8 'Futár Szerkesztése': user name and email stay as they are; the admin may set a new password. */
export function RunnerEditPage() {
  const userName = useParams().username ?? '';
  const runner = useRunner(userName);
  const update = useUpdateRunner(userName);
  return (
    <section className="page narrow">
      <h1>{messages.adminEditRunnerTitle}</h1>
      <QueryState query={runner}>
        {(account) => (
          <ProfileForm
            account={account}
            emailEditable={false}
            savedMessage={messages.runnerSaved}
            onSave={(values) => update.mutateAsync(values)}
            actions={
              <Link className="button" to={paths.adminRunners}>
                {messages.adminBack}
              </Link>
            }
          />
        )}
      </QueryState>
      <RunnerTrustPanel userName={userName} />
      <RunnerComments userName={userName} />
    </section>
  );
}
