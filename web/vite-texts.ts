import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
// By path, not by package name: the config is bundled before it runs, and the catalogue is TypeScript.
import { huAreas } from '../domain/src/messages.ts';

const domainMessages = fileURLToPath(new URL('../domain/src/messages.ts', import.meta.url));
const webTexts = fileURLToPath(new URL('./src/i18n/texts.ts', import.meta.url));
const AREA = '\0csomagkuldo-texts:';

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const areaOfKey = new Map<string, string>();
for (const [area, texts] of Object.entries(huAreas)) for (const key of Object.keys(texts)) areaOfKey.set(key, area);

/**
 * Texts by area, loaded with the modules that read them (issue 30, ADR 0034). In the browser build
 * the catalogue is web/src/i18n/texts.ts, empty at first; every module that reads `messages.<key>`
 * gets, before its own imports, an import of each area those keys live in, which registers that
 * area's texts. The import runs before the module's body, so a text a module keeps when it loads
 * (a schema's message) is there. The landing page then loads the shell's and its own areas, not the
 * whole catalogue. Keys are read by name (`messages.key`): the catalogue is never indexed by a
 * computed key (a test of the architecture would see it).
 */
export function textsByArea(): Plugin {
  return {
    name: 'csomagkuldo:texts-by-area',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source.startsWith(AREA)) return source;
      if (!importer || importer === webTexts) return null;
      if (source === '@csomag/domain/messages' || source.endsWith('/messages.ts')) {
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
        if (resolved?.id === domainMessages) return webTexts;
      }
      return null;
    },
    load(id) {
      if (!id.startsWith(AREA)) return null;
      const area = id.slice(AREA.length);
      const file = fileURLToPath(new URL(`../domain/src/messages/hu/${kebab(area)}.ts`, import.meta.url));
      return `import { register } from ${JSON.stringify(webTexts)};\nimport { ${area} } from ${JSON.stringify(file)};\nregister(${area});\n`;
    },
    transform(code, id) {
      if (id.startsWith('\0') || id.includes('/node_modules/') || id === webTexts) return null;
      if (!/\.(tsx?|jsx?)$/.test(id) || id.includes('/domain/src/messages/')) return null;
      if (!/\bmessages\b/.test(code) || !/from\s+['"][^'"]*messages(\.ts)?['"]/.test(code)) return null;
      const areas = new Set<string>();
      for (const [, key] of code.matchAll(/\bmessages\.([A-Za-z_$][\w$]*)/g)) {
        const area = key === undefined ? undefined : areaOfKey.get(key);
        if (area) areas.add(area);
      }
      if (areas.size === 0) return null;
      const imports = [...areas].map((area) => `import ${JSON.stringify(AREA + area)};`).join('');
      return { code: `${imports}${code}`, map: null };
    },
  };
}
