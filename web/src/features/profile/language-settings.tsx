import { LANGUAGE_NAMES, LANGUAGES } from '@csomag/domain/language';
import { messages } from '@csomag/domain/messages';
import { useId } from 'react';
import { useSwitchLanguage } from '../../api/language.ts';
import { useSession } from '../../api/session.ts';
import { pageLanguage } from '../../lib/language.ts';

/**
 * 'Nyelv' on the profile (issue 30): the same choice as the header's switch, kept for the account —
 * on one's own profile only (the back office may open another's).
 */
export function LanguageSettings({ userName }: { userName: string }) {
  const { data: account } = useSession();
  const { switchTo, pending } = useSwitchLanguage();
  const id = useId();
  if (account?.userName !== userName) return null;
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{messages.languageLabel}</h2>
      <div className="field">
        <label htmlFor={id}>{messages.languageSwitchHint}</label>
        <select
          id={id}
          value={pageLanguage()}
          disabled={pending}
          onChange={(event) => {
            const language = LANGUAGES.find((option) => option === event.target.value);
            if (language) void switchTo(language);
          }}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
      </div>
    </section>
  );
}
