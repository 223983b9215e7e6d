import { type Account, type ProfileUpdate, profileUpdateSchema } from '@csomag/domain/account';
import { messages } from '@csomag/domain/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { Loading } from '../../components/loading.tsx';
import { applyServerErrors } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { useProfile, useUpdateProfile } from './api.ts';

function BrandPanel() {
  return (
    <aside className="brand-panel" aria-hidden="true">
      <p className="brand-name">Csomagküldő</p>
      <p>Közösségben erősebbek vagyunk.</p>
    </aside>
  );
}

function ProfileForm({ account, emailEditable }: { account: Account; emailEditable: boolean }) {
  const update = useUpdateProfile(account.userName);
  const form = useForm<ProfileUpdate>({
    resolver: zodResolver(profileUpdateSchema),
    mode: 'onTouched',
    defaultValues: {
      name: account.name,
      password: '',
      phoneNumber: account.phoneNumber,
      address: account.address,
      ...(emailEditable ? { email: account.email } : {}),
    },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values);
      form.resetField('password');
      notify.success(messages.profileSaved);
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form card" onSubmit={onSubmit} noValidate>
      <FormField label="Felhasználónév" value={account.userName} disabled readOnly />
      <FormField label="Név" autoComplete="name" error={errors.name?.message} {...form.register('name')} />
      <FormField
        label="Jelszó"
        type="password"
        autoComplete="new-password"
        placeholder="Új jelszó (ha változtatnád)"
        error={errors.password?.message}
        {...form.register('password')}
      />
      <FormField
        label="Telefonszám"
        type="tel"
        autoComplete="tel"
        error={errors.phoneNumber?.message}
        {...form.register('phoneNumber')}
      />
      <FormField
        label="Cím"
        autoComplete="street-address"
        error={errors.address?.message}
        {...form.register('address')}
      />
      {emailEditable ? (
        <FormField
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...form.register('email')}
        />
      ) : (
        <FormField label="Email" type="email" value={account.email} readOnly disabled />
      )}
      <FormError message={update.isError ? errorMessage(update.error) : null} />
      <button className="button primary" type="submit" disabled={isSubmitting}>
        Mentés
      </button>
    </form>
  );
}

/** SPEC §2.6 / §2.7: the profile of the signed-in user or runner; runners cannot change their email. */
function ProfilePage({ emailEditable }: { emailEditable: boolean }) {
  const userName = useParams().username ?? '';
  const { data: account, error, isPending } = useProfile(userName);
  return (
    <section className="page">
      <h1>Profilom</h1>
      {isPending ? (
        <Loading />
      ) : error || !account ? (
        <p role="alert" className="form-error">
          {errorMessage(error)}
        </p>
      ) : (
        <div className="profile-layout">
          <ProfileForm account={account} emailEditable={emailEditable} />
          <BrandPanel />
        </div>
      )}
    </section>
  );
}

export const UserProfilePage = () => <ProfilePage emailEditable />;
export const RunnerProfilePage = () => <ProfilePage emailEditable={false} />;
