import { DEFAULT_LANGUAGE, isLanguage, type Language, preferredLanguage } from '@csomag/domain/language';

/** The language a person chose with the switch, kept in this browser (issue 30). */
const STORAGE_KEY = 'csomagkuldo.language';

function stored(): Language | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    // Storage refused (a private window's quota, a policy): the browser's languages decide.
    return null;
  }
}

/** Whether the person chose a language here (not only their browser's preference). */
export const languageChosenHere = () => stored() !== null;

/** The page's language: the one chosen here, else the browser's preferred one of ours, else Hungarian. */
export function chosenLanguage(): Language {
  if (typeof navigator === 'undefined') return DEFAULT_LANGUAGE;
  return stored() ?? preferredLanguage((navigator.languages ?? [navigator.language]).join(','));
}

/** The language the page was loaded in (set once by i18n/texts.ts, from chosenLanguage). */
export const pageLanguage = (): Language =>
  typeof document !== 'undefined' && isLanguage(document.documentElement.lang)
    ? document.documentElement.lang
    : DEFAULT_LANGUAGE;

/**
 * Keeps `language` for this browser and loads the page again in it (every module's texts are read
 * at load). Where storage is refused nothing changes: loading again would only come back as it was.
 */
export function rememberLanguage(language: Language) {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    return;
  }
  window.location.reload();
}

/** The locale numbers are written in on this page: a thousands' separator as its language has it. */
export const numberLocale = () => (pageLanguage() === 'en' ? 'en-GB' : 'hu-HU');
