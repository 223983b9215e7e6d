import { messages } from '@csomag/domain/messages';
import { paths, roleHome } from '@csomag/domain/paths';
import type { SelfRegisterRole } from '@csomag/domain/roles';
import { AccountForm } from '../../components/account-form.tsx';
import { Link, useNavigate } from '../../lib/router.tsx';
import { useRegister } from './api.ts';

const titles: Record<SelfRegisterRole, string> = {
  user: messages.registerUserTitle,
  runner: messages.registerRunnerTitle,
};

function RegisterPage({ accountRole }: { accountRole: SelfRegisterRole }) {
  const register = useRegister();
  const navigate = useNavigate();
  return (
    <section className="page narrow">
      <h1>{titles[accountRole]}</h1>
      <AccountForm
        submitLabel={messages.registerSubmit}
        onSubmit={async (values) => {
          const { account } = await register.mutateAsync({ ...values, role: accountRole });
          navigate(roleHome[account.role], { replace: true });
        }}
      />
      <p className="muted">
        {messages.registerHaveAccount} <Link to={paths.login}>{messages.registerSignIn}</Link>
      </p>
    </section>
  );
}

export const RegisterUserPage = () => <RegisterPage accountRole="user" />;
export const RegisterRunnerPage = () => <RegisterPage accountRole="runner" />;
