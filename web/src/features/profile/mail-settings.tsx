import { SENDER_MAIL_KINDS, senderMailKindLabels } from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import { useId } from 'react';
import { useMailPreferences, useMailSwitches, useUpdateMailPreferences } from '../../api/mail.ts';
import { KindSwitches } from '../../components/kind-switches.tsx';

/**
 * 'E-mail értesítések' (issue 29): which status mails a sender gets about the parcels they send,
 * a switch per kind (the one-click stop in each message switches its kind off here too).
 */
export function MailSettings() {
  const titleId = useId();
  const preferences = useMailPreferences();
  const update = useUpdateMailPreferences();
  const switches = useMailSwitches();
  return (
    <section className="card push-settings" aria-labelledby={titleId}>
      <h2 id={titleId}>{messages.mailSettingsTitle}</h2>
      {preferences.data && !preferences.data.verified && <p className="notice">{messages.mailSettingsUnverified}</p>}
      <KindSwitches
        className="push-kinds"
        legend={messages.mailSettingsIntro}
        kinds={SENDER_MAIL_KINDS}
        labels={senderMailKindLabels}
        state={switches}
        save={(kind, on) => update.mutateAsync({ kinds: { [kind]: on } })}
        saving={update.isPending}
        saved={messages.mailSettingsSaved}
      />
    </section>
  );
}
