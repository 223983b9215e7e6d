import { messages } from '@csomag/domain/messages';
import { useParams } from 'react-router';
import { useSession } from '../../api/session.ts';
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
            <MyData userName={account.userName} />
          </div>
        )}
      </QueryState>
    </section>
  );
}

export const UserProfilePage = () => <ProfilePage emailEditable />;
export const RunnerProfilePage = () => <ProfilePage emailEditable={false} />;
