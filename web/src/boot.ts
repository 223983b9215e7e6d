import { speak } from '@csomag/domain/messages';
import { chosenLanguage } from './lib/language.ts';
import './styles.css';

/*
 * The first module (issue 30, docs/decisions/0034): the page's language is settled before the app
 * is loaded, so every module that keeps a text when it loads (a schema's message, a label table)
 * keeps it in that language. English brings its catalogue first; Hungarian, the default, nothing.
 */
const language = chosenLanguage();
document.documentElement.lang = language;
const spoken = language === 'en' ? import('@csomag/domain/messages-en').then(({ en }) => speak(en)) : Promise.resolve();
void spoken.then(() => import('./main.tsx'));
