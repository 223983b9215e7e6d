import type { Catalogue } from '@csomag/domain/messages';

/*
 * The web's catalogue (issue 30, ADR 0034): what `@csomag/domain/messages` is in the browser. It
 * starts empty; each module that reads texts first imports the areas it reads them from (the build
 * adds those imports: web/vite-texts.ts), which register here — so a page loads only its own areas'
 * texts. A page in English gets the whole English catalogue before the app loads (boot.ts), and the
 * areas' Hungarian texts are then left unregistered.
 */

/** Every text a module has asked for so far, in the page's language. */
export const messages = {} as Catalogue;

let spoken = false;

/** The page speaks `catalogue`: its texts, all of them, from now on. */
export function speak(catalogue: Catalogue) {
  spoken = true;
  Object.assign(messages, catalogue);
}

/** An area's Hungarian texts, registered by the area's module as it loads (unless another language is spoken). */
export function register(area: Partial<Catalogue>) {
  if (!spoken) Object.assign(messages, area);
}
