import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { type EraseAccountBody, eraseAccountBodySchema } from '@csomag/domain/personal-data';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useSession } from '../../api/session.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { ProfileForm } from '../../components/profile-form.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { useNavigate, useParams } from '../../lib/router.tsx';
import { useEraseAccount, useProfile, useUpdateProfile } from './api.ts';
import { CommentsAboutMe } from './comments-about-me.tsx';
import { EmailVerificationNotice } from './email-verification.tsx';
import { LanguageSettings } from './language-settings.tsx';
import { MailSettings } from './mail-settings.tsx';
import { PushSettings } from './push-settings.tsx';

function BrandPanel() {
  return (
    <aside className="brand-panel" aria-hidden="true">
      <p className="brand-name">{messages.appName}</p>
      <p>{messages.profileBrandMotto}</p>
    </aside>
  );
}

/**
 * 'Adataim letöltése' (issue 29): everything kept about the person, as a JSON file. The server
 * answers it to that person only; a plain link lets the browser download it with the session.
 */
function MyData({ userName }: { userName: string }) {
  const { data: account } = useSession();
  if (account?.userName !== userName) return null;
  return (
    <section className="card" aria-labelledby="my-data-title">
      <h2 id="my-data-title">{messages.myDataTitle}</h2>
      <p className="muted">{messages.myDataHint}</p>
      <a className="button" href={`/api/users/${encodeURIComponent(userName)}/export`} download>
        {messages.myDataDownload}
      </a>
    </section>
  );
}

/**
 * 'Fiók törlése' (issue 29): with the password again, so a session left open cannot erase anyone.
 * Said once the server has erased it; then the visitor's home page.
 */
function EraseAccount({ userName }: { userName: string }) {
  const { data: account } = useSession();
  const erase = useEraseAccount(userName);
  const navigate = useNavigate();
  const form = useForm<EraseAccountBody>({
    resolver: zodResolver(eraseAccountBodySchema),
    defaultValues: { password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  if (account?.userName !== userName) return null;
  const submit = form.handleSubmit(async (body) => {
    try {
      await erase.mutateAsync(body);
      notify.success(messages.eraseDone);
      navigate(paths.home, { replace: true });
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form card" onSubmit={submit} noValidate aria-label={messages.eraseTitle}>
      <h2>{messages.eraseTitle}</h2>
      <p className="muted">{messages.eraseHint}</p>
      <FormField
        label={messages.erasePasswordLabel}
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...form.register('password')}
      />
      <FormError message={serverSummary(errors)} />
      <button type="submit" className="button danger" disabled={isSubmitting}>
        {messages.eraseSubmit}
      </button>
    </form>
  );
}

/** SPEC §2.6 / §2.7: the profile of the signed-in user or runner; runners cannot change their email. */
function ProfilePage({ emailEditable }: { emailEditable: boolean }) {
  const userName = useParams().username ?? '';
  const profile = useProfile(userName);
  const update = useUpdateProfile(userName);
  return (
    <section className="page">
      <h1>{messages.profileTitle}</h1>
      <EmailVerificationNotice userName={userName} />
      <QueryState query={profile}>
        {(account) => (
          <div className="profile-layout">
            <ProfileForm
              account={account}
              emailEditable={emailEditable}
              savedMessage={messages.profileSaved}
              onSave={(values) => update.mutateAsync(values)}
            />
            <BrandPanel />
            <LanguageSettings userName={account.userName} />
            <PushSettings role={account.role} />
            {account.role === 'user' && <MailSettings />}
            {account.role === 'runner' && <CommentsAboutMe userName={account.userName} />}
            <MyData userName={account.userName} />
            <EraseAccount userName={account.userName} />
          </div>
        )}
      </QueryState>
    </section>
  );
}

export const UserProfilePage = () => <ProfilePage emailEditable />;
export const RunnerProfilePage = () => <ProfilePage emailEditable={false} />;
