import type { Catalogue } from '@csomag/domain/messages';
import { chosenLanguage } from '../lib/language.ts';

/*
 * The web's catalogue (issue 30, ADR 0034): what `@csomag/domain/messages` is in the browser. It
 * starts empty; each module that reads texts first imports a module per text it reads (the build
 * adds those imports: web/vite-texts.ts), which sets that text in the page's language — so a page
 * loads only its own texts, in its language. The language is settled here, by the first text
 * module to run, before any module can keep a text.
 */

const language = chosenLanguage();
if (typeof document !== 'undefined') document.documentElement.lang = language;

/** Whether the page speaks English (else Hungarian): read by every text module as it runs. */
export const english = language === 'en';

/** Every text a module has asked for so far, in the page's language. */
export const messages = {} as Record<string, unknown> as { -readonly [K in keyof Catalogue]: Catalogue[K] };
