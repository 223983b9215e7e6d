import type { Language } from '@csomag/domain/language';
import { messages } from '@csomag/domain/messages';
import { useState } from 'react';
import { rememberLanguage } from '../lib/language.ts';
import { notify } from '../lib/notify.ts';
import { saveLanguage, useSession } from './session.ts';

/**
 * Changes the page's language (issue 30): the account's first, when signed in, then this browser's;
 * the page loads again in it. Said only once the server has the account's choice.
 */
export function useSwitchLanguage() {
  const { data: account } = useSession();
  const [pending, setPending] = useState(false);
  const switchTo = async (language: Language) => {
    setPending(true);
    try {
      if (account) await saveLanguage(account.userName, language);
      if (!rememberLanguage(language)) {
        setPending(false);
        notify.info(messages.languageNotKept);
      }
    } catch (error) {
      setPending(false);
      notify.error(error);
    }
  };
  return { switchTo, pending };
}
