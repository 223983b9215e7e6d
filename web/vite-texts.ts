import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
// By path, not by package name: the config is bundled before it runs, and the catalogue is TypeScript.
import { huAreas } from '../domain/src/messages.ts';
import { enAreas } from '../domain/src/messages-en.ts';

const domainMessages = fileURLToPath(new URL('../domain/src/messages.ts', import.meta.url));
const webTexts = fileURLToPath(new URL('./src/i18n/texts.ts', import.meta.url));
const MESSAGES = '__text_messages';
const ENGLISH = '__text_english';

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** A text as an expression: a string's literal, a function's own source when it stands alone (run apart to check), else null. */
function expressionOf(text: unknown): string | null {
  if (typeof text === 'string') return JSON.stringify(text);
  const source = String(text);
  try {
    const made = new Function(`return (${source})`)() as (...args: unknown[]) => unknown;
    return typeof made(...Array.from({ length: made.length }, (_, i) => (i === 0 ? 1 : 'x'))) === 'string'
      ? `(${source})`
      : null;
  } catch {
    return null;
  }
}

/** A text's setting, written into each module that reads it: its imports, and the assignment. */
interface TextSource {
  imports: string[];
  assignment: string;
}

/**
 * Each key's setting: both languages' texts, the page's one assigned (`english` is settled by
 * texts.ts before any module that reads a text runs). A text that does not stand alone (a function
 * using a table of its area's) is read from its area's module.
 */
const textSource = new Map<string, TextSource>();
for (const [area, texts] of Object.entries(huAreas)) {
  const fileIn = (language: 'hu' | 'en') =>
    JSON.stringify(fileURLToPath(new URL(`../domain/src/messages/${language}/${kebab(area)}.ts`, import.meta.url)));
  const englishTexts = enAreas[area as keyof typeof enAreas] as Record<string, unknown>;
  for (const [key, text] of Object.entries(texts) as [string, unknown][]) {
    const imports: string[] = [];
    const say = (expression: string | null, language: 'hu' | 'en') => {
      if (expression !== null) return expression;
      const alias = `__text_${language}_${area}`;
      imports.push(`import { ${area} as ${alias} } from ${fileIn(language)};`);
      return `${alias}.${key}`;
    };
    const hu = say(expressionOf(text), 'hu');
    const en = say(expressionOf(englishTexts[key]), 'en');
    textSource.set(key, { imports, assignment: `${MESSAGES}[${JSON.stringify(key)}] = ${ENGLISH} ? ${en} : ${hu};` });
  }
}

/**
 * Texts with the modules that read them (issue 30, ADR 0034). In the browser build the catalogue
 * is web/src/i18n/texts.ts, empty at first; every module that reads `messages.<key>` sets those
 * keys itself, first thing in its body, in the page's language (each setting carries both
 * languages: a page's texts are a few KiB, and English needs no download first). A module's
 * imports run before its body and set their own texts, so a text a module keeps when it loads (a
 * schema's message) is there. A text read by several chunks is written into each rather than put
 * in a chunk of its own: a few dozen bytes twice cost less than a request. The landing page loads
 * the shell's and its own texts, not the whole catalogue. Keys are read by name (`messages.key`):
 * the catalogue is never indexed by a computed key (a test of the architecture holds that).
 */
export function textsWithTheirModules(): Plugin {
  return {
    name: 'csomagkuldo:texts-with-their-modules',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || importer === webTexts) return null;
      if (source === '@csomag/domain/messages' || source.endsWith('/messages.ts')) {
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
        if (resolved?.id === domainMessages) return webTexts;
      }
      return null;
    },
    transform(code, id) {
      if (id.startsWith('\0') || id.includes('/node_modules/') || id === webTexts) return null;
      if (!/\.(tsx?|jsx?)$/.test(id) || id.includes('/domain/src/messages/')) return null;
      if (!/\bmessages\b/.test(code) || !/from\s+['"][^'"]*messages(\.ts)?['"]/.test(code)) return null;
      const keys = new Set<string>();
      for (const [, key] of code.matchAll(/\bmessages\.([A-Za-z_$][\w$]*)/g)) {
        if (key !== undefined && textSource.has(key)) keys.add(key);
      }
      if (keys.size === 0) return null;
      const settings = [...keys].map((key) => textSource.get(key) as TextSource);
      const imports = new Set([
        `import { english as ${ENGLISH}, messages as ${MESSAGES} } from ${JSON.stringify(webTexts)};`,
        ...settings.flatMap((setting) => setting.imports),
      ]);
      // On the first line, so the module's own lines keep their numbers.
      return {
        code: `${[...imports].join('')}${settings.map((setting) => setting.assignment).join('')}${code}`,
        map: null,
      };
    },
  };
}
