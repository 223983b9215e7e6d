import { type NewAccount, newAccountSchema } from '@csomag/domain/account';
import { messages } from '@csomag/domain/messages';
import { paths, roleHome } from '@csomag/domain/paths';
import type { SelfRegisterRole } from '@csomag/domain/roles';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { applyServerErrors } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { useRegister } from './api.ts';

const titles: Record<SelfRegisterRole, string> = {
  user: 'Felhasználói regisztráció',
  runner: 'Futár regisztráció',
};

function RegisterPage({ accountRole: role }: { accountRole: SelfRegisterRole }) {
  const register = useRegister();
  const navigate = useNavigate();
  const form = useForm<NewAccount>({ resolver: zodResolver(newAccountSchema), mode: 'onTouched' });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { account } = await register.mutateAsync({ ...values, role });
      navigate(roleHome[account.role], { replace: true });
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });

  return (
    <section className="page narrow">
      <h1>{titles[role]}</h1>
      <form className="form card" onSubmit={onSubmit} noValidate>
        <FormField label="Név" autoComplete="name" error={errors.name?.message} {...form.register('name')} />
        <FormField
          label="Felhasználónév"
          autoComplete="username"
          error={errors.userName?.message}
          {...form.register('userName')}
          onFocus={() => notify.info(messages.useEnglishLetters, 'english-letters')}
        />
        <FormField
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...form.register('email')}
        />
        <FormField
          label="Jelszó"
          type="password"
          autoComplete="new-password"
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
        <FormError message={register.isError ? errorMessage(register.error) : null} />
        <button className="button primary" type="submit" disabled={isSubmitting}>
          Regisztráció
        </button>
      </form>
      <p className="muted">
        Van már fiókod? <Link to={paths.login}>Bejelentkezés</Link>
      </p>
    </section>
  );
}

export const RegisterUserPage = () => <RegisterPage accountRole="user" />;
export const RegisterRunnerPage = () => <RegisterPage accountRole="runner" />;
