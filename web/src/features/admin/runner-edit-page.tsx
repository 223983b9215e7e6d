import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { FormError } from '../../components/form-field.tsx';
import { Loading } from '../../components/loading.tsx';
import { ProfileForm } from '../../components/profile-form.tsx';
import { runnerQuery, useUpdateRunner } from './api.ts';

/** SPEC §2.8 'Futár Szerkesztése': user name and email stay as they are; the admin may set a new password. */
export function RunnerEditPage() {
  const userName = useParams().username ?? '';
  const runner = useQuery(runnerQuery(userName));
  const update = useUpdateRunner(userName);
  return (
    <section className="page narrow">
      <h1>Futár Szerkesztése</h1>
      {runner.isPending ? (
        <Loading />
      ) : runner.isError ? (
        <FormError message={errorMessage(runner.error)} />
      ) : (
        <ProfileForm
          account={runner.data}
          emailEditable={false}
          savedMessage={messages.runnerSaved}
          onSave={(values) => update.mutateAsync(values)}
          actions={
            <Link className="button" to={paths.adminRunners}>
              Vissza
            </Link>
          }
        />
      )}
    </section>
  );
}
