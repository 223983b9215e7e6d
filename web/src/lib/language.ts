import {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGE_COOKIE,
  LANGUAGE_COOKIE_MAX_AGE_S,
  type Language,
  preferredLanguage,
} from '@csomag/domain/language';

/** The language a person chose with the switch, kept in this browser (issue 30). */
const STORAGE_KEY = 'csomagkuldo.language';

/** The choice as the server reads it, to send the page already in it (web/scripts/prerender.ts). */
function cookieLanguage(): Language | null {
  const value = document.cookie.match(new RegExp(`(?:^|; )${LANGUAGE_COOKIE}=([^;]*)`))?.[1];
  return isLanguage(value) ? value : null;
}

function stored(): Language | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    if (isLanguage(value)) return value;
  } catch {
    // Storage refused (a private window's quota, a policy): the cookie, else the browser's languages.
  }
  return cookieLanguage();
}

/** Whether the person chose a language here (not only their browser's preference). */
export const languageChosenHere = () => stored() !== null;

/** The page's language: the one chosen here, else the browser's preferred one of ours, else Hungarian. */
export function chosenLanguage(): Language {
  if (typeof navigator === 'undefined') return DEFAULT_LANGUAGE;
  return stored() ?? preferredLanguage((navigator.languages ?? [navigator.language]).join(','));
}

let renderLanguage: Language = DEFAULT_LANGUAGE;
/** The language pages are rendered in at build time (src/prerender.tsx): there is no document there. */
export const setRenderLanguage = (language: Language) => {
  renderLanguage = language;
};

/** The language the page was loaded in (set once by i18n/texts.ts, from chosenLanguage). */
export const pageLanguage = (): Language => {
  if (typeof document === 'undefined') return renderLanguage;
  return isLanguage(document.documentElement.lang) ? document.documentElement.lang : DEFAULT_LANGUAGE;
};

/**
 * Keeps `language` for this browser — in localStorage and in a cookie, which the server reads to
 * send the next page already in it — and loads the page again in it (every module's texts are read
 * at load). Where both are refused nothing changes (false): loading again would only come back as it was.
 */
export function rememberLanguage(language: Language): boolean {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we serve (Firefox)
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=${LANGUAGE_COOKIE_MAX_AGE_S}; samesite=lax`;
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // The cookie keeps it (stored() reads it too).
  }
  if (stored() !== language) return false;
  window.location.reload();
  return true;
}

/** The locale numbers are written in on this page: a thousands' separator as its language has it. */
export const numberLocale = () => (pageLanguage() === 'en' ? 'en-GB' : 'hu-HU');
