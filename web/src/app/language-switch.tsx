import { LANGUAGE_NAMES, LANGUAGES } from '@csomag/domain/language';
import { messages } from '@csomag/domain/messages';
import { useEffect } from 'react';
import { useSwitchLanguage } from '../api/language.ts';
import { saveLanguage, useSession } from '../api/session.ts';
import { languageChosenHere, pageLanguage, rememberLanguage } from '../lib/language.ts';

/**
 * The header's switch: the other language's code, small enough for the one-line menu at 1024 px
 * and the phone's header at 320 px; its name is the language's own ("English (EN)").
 */
export function LanguageSwitch() {
  const { switchTo, pending } = useSwitchLanguage();
  const current = pageLanguage();
  const other = LANGUAGES.find((language) => language !== current) ?? current;
  return (
    <button
      type="button"
      className="language-switch"
      lang={other}
      aria-label={`${LANGUAGE_NAMES[other]} (${other.toUpperCase()})`}
      title={messages.languageSwitchHint}
      disabled={pending}
      onClick={() => void switchTo(other)}
    >
      {other.toUpperCase()}
    </button>
  );
}

/**
 * Keeps the account's language and the page's one (mounted by the layout): an account that chose
 * a language opens its pages in it on any browser; a language chosen here before signing in is
 * kept for the account.
 */
export function LanguageSync() {
  const { data: account } = useSession();
  useEffect(() => {
    if (!account) return;
    const here = pageLanguage();
    if (account.language === null) {
      if (languageChosenHere()) void saveLanguage(account.userName, here).catch(() => {});
    } else if (account.language !== here) {
      rememberLanguage(account.language);
    }
  }, [account]);
  return null;
}
