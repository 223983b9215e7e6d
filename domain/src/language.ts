/** The product's languages (issue 30): Hungarian, its default, and English. */
export const LANGUAGES = ['hu', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'hu';

/** Each language's name in itself: what a switch offers, whatever the page's language. */
export const LANGUAGE_NAMES: Record<Language, string> = { hu: 'Magyar', en: 'English' };

/**
 * The language chosen with the switch, as the server reads it to send a page rendered at build time
 * already in it (web/scripts/prerender.ts): the browser keeps it in localStorage too. A year.
 */
export const LANGUAGE_COOKIE = 'csomagkuldo-language';
export const LANGUAGE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

export const isLanguage = (tag: string | null | undefined): tag is Language =>
  tag != null && (LANGUAGES as readonly string[]).includes(tag);

/**
 * The language an `Accept-Language` header prefers among the product's: its tags by weight (a
 * region ignored: en-GB is English), the first one we have; Hungarian when it names none.
 */
export function preferredLanguage(header: string | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const ranked = header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim().toLowerCase().split('-')[0] ?? '', weight: q === undefined ? 1 : Number(q), order };
    })
    .filter((entry) => entry.weight > 0 && !Number.isNaN(entry.weight))
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  return ranked.map((entry) => entry.tag).find(isLanguage) ?? DEFAULT_LANGUAGE;
}

/**
 * A page's language as the server picks it: the language chosen with the switch (its cookie), else
 * the browser's preferred one — what the page's script settles on too (web/src/lib/language.ts).
 */
export function pageLanguageOf(cookieValue: string | undefined, acceptLanguage: string | undefined): Language {
  return isLanguage(cookieValue) ? cookieValue : preferredLanguage(acceptLanguage);
}
