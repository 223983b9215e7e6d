import { messages } from '@csomag/domain/messages';
import { useParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { FormError } from '../../components/form-field.tsx';
import { Loading } from '../../components/loading.tsx';
import { ProfileForm } from '../../components/profile-form.tsx';
import { useProfile, useUpdateProfile } from './api.ts';

function BrandPanel() {
  return (
    <aside className="brand-panel" aria-hidden="true">
      <p className="brand-name">Csomagküldő</p>
      <p>Közösségben erősebbek vagyunk.</p>
    </aside>
  );
}

/** SPEC §2.6 / §2.7: the profile of the signed-in user or runner; runners cannot change their email. */
function ProfilePage({ emailEditable }: { emailEditable: boolean }) {
  const userName = useParams().username ?? '';
  const { data: account, error, isPending } = useProfile(userName);
  const update = useUpdateProfile(userName);
  return (
    <section className="page">
      <h1>Profilom</h1>
      {isPending ? (
        <Loading />
      ) : error || !account ? (
        <FormError message={errorMessage(error)} />
      ) : (
        <div className="profile-layout">
          <ProfileForm
            account={account}
            emailEditable={emailEditable}
            savedMessage={messages.profileSaved}
            onSave={(values) => update.mutateAsync(values)}
          />
          <BrandPanel />
        </div>
      )}
    </section>
  );
}

export const UserProfilePage = () => <ProfilePage emailEditable />;
export const RunnerProfilePage = () => <ProfilePage emailEditable={false} />;
