import type { Catalogue } from '@csomag/domain/messages';
import { chosenLanguage } from '../lib/language.ts';

/*
 * The web's catalogue (issue 30, ADR 0034): what `@csomag/domain/messages` is in the browser. It
 * starts empty; each module that reads texts sets them first thing in its body, in the page's
 * language (the build writes those settings in: web/vite-texts.ts) — so a page loads only its own
 * texts. The language is settled here, when the first module reading a text imports this one,
 * before any module can keep a text.
 */

const language = chosenLanguage();
if (typeof document !== 'undefined') document.documentElement.lang = language;

/** Whether the page speaks English (else Hungarian): read by every module that sets a text. */
export const english = language === 'en';

/** Every text a module has asked for so far, in the page's language. */
export const messages = {} as Record<string, unknown> as { -readonly [K in keyof Catalogue]: Catalogue[K] };
