import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { AccountForm } from '../../components/account-form.tsx';
import { notify } from '../../lib/notify.ts';
import { useNavigate } from '../../lib/router.tsx';
import { useRegisterRunner } from './api.ts';

export function RunnerRegisterPage() {
  const register = useRegisterRunner();
  const navigate = useNavigate();
  return (
    <section className="page narrow">
      <h1>{messages.adminRegisterRunnerTitle}</h1>
      <AccountForm
        submitLabel={messages.adminRegisterRunnerSubmit}
        onSubmit={async (values) => {
          await register.mutateAsync(values);
          notify.success(messages.runnerRegistered);
          navigate(paths.adminRunners);
        }}
      />
    </section>
  );
}
