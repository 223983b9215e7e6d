import { type Account, type ProfileUpdate, profileUpdateSchema } from '@csomag/domain/account';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { Loading } from '../../components/loading.tsx';
import { applyServerErrors } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { runnerQuery, useUpdateRunner } from './api.ts';

function RunnerEditForm({ runner }: { runner: Account }) {
  const update = useUpdateRunner(runner.userName);
  const form = useForm<ProfileUpdate>({
    resolver: zodResolver(profileUpdateSchema),
    mode: 'onTouched',
    defaultValues: { name: runner.name, password: '', phoneNumber: runner.phoneNumber, address: runner.address },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values);
      form.resetField('password');
      notify.success(messages.runnerSaved);
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form card" onSubmit={onSubmit} noValidate>
      <FormField label="Felhasználónév" value={runner.userName} disabled readOnly />
      <FormField label="Email" value={runner.email} disabled readOnly />
      <FormField label="Név" error={errors.name?.message} {...form.register('name')} />
      <FormField
        label="Jelszó"
        type="password"
        autoComplete="new-password"
        placeholder="Új jelszó (ha változtatnád)"
        error={errors.password?.message}
        {...form.register('password')}
      />
      <FormField label="Telefonszám" type="tel" error={errors.phoneNumber?.message} {...form.register('phoneNumber')} />
      <FormField label="Cím" error={errors.address?.message} {...form.register('address')} />
      <FormError message={update.isError ? errorMessage(update.error) : null} />
      <div className="card-actions">
        <button className="button primary" type="submit" disabled={isSubmitting}>
          Mentés
        </button>
        <Link className="button" to={paths.adminRunners}>
          Vissza
        </Link>
      </div>
    </form>
  );
}

export function RunnerEditPage() {
  const userName = useParams().username ?? '';
  const runner = useQuery(runnerQuery(userName));
  return (
    <section className="page narrow">
      <h1>Futár Szerkesztése</h1>
      {runner.isPending ? (
        <Loading />
      ) : runner.isError ? (
        <FormError message={errorMessage(runner.error)} />
      ) : (
        <RunnerEditForm runner={runner.data} />
      )}
    </section>
  );
}
