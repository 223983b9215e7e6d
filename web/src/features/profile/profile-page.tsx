import { messages } from '@csomag/domain/messages';
import { useParams } from 'react-router';
import { ProfileForm } from '../../components/profile-form.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { useProfile, useUpdateProfile } from './api.ts';
import { CommentsAboutMe } from './comments-about-me.tsx';
import { PushSettings } from './push-settings.tsx';

function BrandPanel() {
  return (
    <aside className="brand-panel" aria-hidden="true">
      <p className="brand-name">{messages.appName}</p>
      <p>{messages.profileBrandMotto}</p>
    </aside>
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
            <PushSettings role={account.role} />
            {account.role === 'runner' && <CommentsAboutMe userName={account.userName} />}
          </div>
        )}
      </QueryState>
    </section>
  );
}

export const UserProfilePage = () => <ProfilePage emailEditable />;
export const RunnerProfilePage = () => <ProfilePage emailEditable={false} />;
