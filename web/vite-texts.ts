import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
// By path, not by package name: the config is bundled before it runs, and the catalogue is TypeScript.
import { huAreas } from '../domain/src/messages.ts';
import { enAreas } from '../domain/src/messages-en.ts';

const domainMessages = fileURLToPath(new URL('../domain/src/messages.ts', import.meta.url));
const webTexts = fileURLToPath(new URL('./src/i18n/texts.ts', import.meta.url));
const TEXT = '\0csomagkuldo-text:';

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

/**
 * Each key's text module: both languages' texts, the page's one registered (`english` is settled
 * by texts.ts before any text module runs). A text that does not stand alone (a function using a
 * table of its area's) is read from its area's module.
 */
const textSource = new Map<string, string>();
for (const [area, texts] of Object.entries(huAreas)) {
  const fileIn = (language: 'hu' | 'en') =>
    JSON.stringify(fileURLToPath(new URL(`../domain/src/messages/${language}/${kebab(area)}.ts`, import.meta.url)));
  const englishTexts = enAreas[area as keyof typeof enAreas] as Record<string, unknown>;
  for (const [key, text] of Object.entries(texts) as [string, unknown][]) {
    const hu = expressionOf(text);
    const en = expressionOf(englishTexts[key]);
    const imports = [
      ...(hu === null ? [`import { ${area} as hu } from ${fileIn('hu')};`] : []),
      ...(en === null ? [`import { ${area} as en } from ${fileIn('en')};`] : []),
    ].join('\n');
    const say = (expression: string | null, from: string) => expression ?? `${from}.${key}`;
    textSource.set(
      key,
      `${imports}\nmessages[${JSON.stringify(key)}] = english ? ${say(en, 'en')} : ${say(hu, 'hu')};\n`,
    );
  }
}

/**
 * Texts with the modules that read them (issue 30, ADR 0034). In the browser build the catalogue
 * is web/src/i18n/texts.ts, empty at first; every module that reads `messages.<key>` gets, before
 * its own imports, an import of each of those keys' text module, which sets it in the page's
 * language (each carries both: a page's texts are a few KiB, and English needs no download first). The import runs
 * before the module's body, so a text a module keeps when it loads (a schema's message) is there.
 * The bundler puts each text with the chunks that read it: the landing page loads the shell's and
 * its own texts, not the whole catalogue. Keys are read by name (`messages.key`): the catalogue is
 * never indexed by a computed key (a test of the architecture holds that).
 */
export function textsWithTheirModules(): Plugin {
  return {
    name: 'csomagkuldo:texts-with-their-modules',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source.startsWith(TEXT)) return source;
      if (!importer || importer === webTexts) return null;
      if (source === '@csomag/domain/messages' || source.endsWith('/messages.ts')) {
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
        if (resolved?.id === domainMessages) return webTexts;
      }
      return null;
    },
    load(id) {
      if (!id.startsWith(TEXT)) return null;
      const text = textSource.get(id.slice(TEXT.length));
      if (text === undefined) throw new Error(`texts-with-their-modules: no text ${id.slice(TEXT.length)}`);
      return `import { english, messages } from ${JSON.stringify(webTexts)};\n${text}`;
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
      const imports = [...keys].map((key) => `import ${JSON.stringify(TEXT + key)};`).join('');
      return { code: `${imports}${code}`, map: null };
    },
  };
}
