/**
 * After `vite build`: renders the pages that are the same for every visitor into their own HTML
 * files, in each language, the app shell likewise, and inlines the entry stylesheet, so the first
 * paint needs nothing but the HTML (docs/decisions/0008-small-first-download.md, ADR 0034). A page
 * whose module is not in the entry names its chunks (`modulepreload`), so the browser fetches them
 * beside the entry. Writes dist/prerendered.json, the table the server serves them by: per path
 * (a `:name` segment matches any one segment) and for the shell, the file in each language.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@csomag/domain/language';
import { en } from '@csomag/domain/messages-en';
import { build, type Plugin } from 'vite';

const webRoot = new URL('..', import.meta.url).pathname;
const dist = join(webRoot, 'dist');
const manifestFile = join(dist, '.vite', 'manifest.json');
const catalogueFile = new URL('../../domain/src/messages.ts', import.meta.url).pathname;
const catalogueFiles: Record<Language, string> = {
  hu: catalogueFile,
  en: new URL('../../domain/src/messages-en.ts', import.meta.url).pathname,
};

type Entry = typeof import('../src/prerender.tsx');
type Files = Record<Language, string>;

try {
  const manifest = readManifest();
  const entryChunks = chunksOf(manifest, 'index.html');
  const template = inlineStylesheet(readFileSync(join(dist, 'index.html'), 'utf8'));
  const table: { shell: Partial<Files>; pages: Record<string, Partial<Files>> } = { shell: {}, pages: {} };
  for (const language of LANGUAGES) {
    const entry = await renderer(language);
    const page = (attributes: string, html: string, head = '') =>
      template
        .replace('<html lang="hu">', `<html lang="${language}">`)
        .replace(/<meta name="description" content="[^"]*"/, (tag) =>
          language === 'en' ? `<meta name="description" content="${attribute(en.manifestDescription)}"` : tag,
        )
        .replace('</head>', () => `${head}</head>`)
        .replace(
          '<div id="root"></div>',
          () => `<div id="root" data-language="${language}"${attributes}>${html}</div>`,
        );
    const folder = language === DEFAULT_LANGUAGE ? 'pages' : `pages/${language}`;
    mkdirSync(join(dist, folder), { recursive: true });

    const shell = language === DEFAULT_LANGUAGE ? 'index.html' : `${folder}/shell.html`;
    writeFileSync(join(dist, shell), page('', await entry.renderShell()));
    table.shell[language] = shell;
    for (const { path, module } of entry.prerenderedPages) {
      const file = `${folder}/${path === '/' ? 'index' : path.slice(1).replace(/[/:]+/g, '-')}.html`;
      // A pattern's page is rendered for a stand-in value; it shows nothing that depends on it.
      const html = await entry.renderPage(path.replace(/:\w+/g, '-'));
      writeFileSync(
        join(dist, file),
        page(` data-prerendered="${path}"`, html, module ? preloads(manifest, module, entryChunks) : ''),
      );
      table.pages[path] = { ...table.pages[path], [language]: file };
    }
  }
  writeFileSync(join(dist, 'prerendered.json'), `${JSON.stringify(table, null, 2)}\n`);
  console.log(`prerendered ${Object.keys(table.pages).join(', ')} and the app shell in ${LANGUAGES.join(', ')}`);
} finally {
  rmSync(join(webRoot, '.prerender'), { recursive: true, force: true });
  // The build's chunk table is for this script; the server never serves it.
  rmSync(join(dist, '.vite'), { recursive: true, force: true });
}

/**
 * The pages' module built for Node with every text in `language`: the modules keep their texts
 * when they load, so each language is a build of its own (the catalogue module swapped).
 */
async function renderer(language: Language): Promise<Entry> {
  // Inside the workspace, so the rendered module finds react and the rest in node_modules.
  const outDir = join(webRoot, '.prerender', language);
  await build({
    root: webRoot,
    logLevel: 'warn',
    plugins: [catalogueIn(language)],
    build: { ssr: 'src/prerender.tsx', outDir, emptyOutDir: true, sourcemap: false, manifest: false },
  });
  const entry: Entry = await import(pathToFileURL(join(outDir, 'prerender.js')).href);
  entry.setRenderLanguage(language);
  return entry;
}

/** `@csomag/domain/messages` as `language`'s catalogue: its other exports stay the Hungarian module's. */
function catalogueIn(language: Language): Plugin {
  const virtual = '\0catalogue-in-language';
  return {
    name: 'catalogue-in-language',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (language === DEFAULT_LANGUAGE || importer === virtual) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === catalogueFile ? virtual : null;
    },
    load(id) {
      if (id !== virtual) return null;
      return `export * from ${JSON.stringify(catalogueFile)};\nexport { ${language} as messages } from ${JSON.stringify(catalogueFiles[language])};\n`;
    },
  };
}

type Manifest = Record<string, { file: string; imports?: string[] }>;

function readManifest(): Manifest {
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: vite.config.ts must keep build.manifest`);
  return JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
}

/** A module's chunk and every chunk it imports statically, by manifest key. */
function chunksOf(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) chunksOf(manifest, imported, seen);
  return seen;
}

/** The page's own chunks, besides what the entry loads anyway, as modulepreload links. */
function preloads(manifest: Manifest, module: string, entryChunks: Set<string>): string {
  if (!manifest[module])
    throw new Error(`routes.tsx names ${module} as a page's module; the build has no chunk for it`);
  return [...chunksOf(manifest, module)]
    .filter((key) => !entryChunks.has(key))
    .map((key) => `<link rel="modulepreload" crossorigin href="/${manifest[key]?.file}">`)
    .join('');
}

function attribute(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/** The entry stylesheet (a few KiB) goes into the page: no render-blocking request before the first paint. */
function inlineStylesheet(html: string): string {
  return html.replace(/<link rel="stylesheet" crossorigin href="\/assets\/([^"]+\.css)">/, (_tag, file: string) => {
    const css = readFileSync(join(dist, 'assets', file), 'utf8');
    return `<style>${css.replaceAll('</style', '<\\/style')}</style>`;
  });
}
