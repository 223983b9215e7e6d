/**
 * After `vite build`: renders the pages that are the same for every visitor into their own HTML
 * files, the app shell into index.html, and inlines the entry stylesheet, so the first paint needs
 * nothing but the HTML (docs/decisions/0008-small-first-download.md). Writes dist/prerendered.json,
 * the path → file table the server serves them by (a `:name` segment matches any one segment).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

const webRoot = new URL('..', import.meta.url).pathname;
const dist = join(webRoot, 'dist');
// Inside the workspace, so the rendered module finds react and the rest in node_modules.
const ssrOut = join(webRoot, '.prerender');

try {
  await build({
    root: webRoot,
    logLevel: 'warn',
    build: { ssr: 'src/prerender.tsx', outDir: ssrOut, emptyOutDir: true, sourcemap: false },
  });
  const entry: typeof import('../src/prerender.tsx') = await import(pathToFileURL(join(ssrOut, 'prerender.js')).href);

  const template = inlineStylesheet(readFileSync(join(dist, 'index.html'), 'utf8'));
  const withRoot = (attributes: string, html: string) =>
    template.replace('<div id="root"></div>', () => `<div id="root"${attributes}>${html}</div>`);

  writeFileSync(join(dist, 'index.html'), withRoot('', await entry.renderShell()));
  mkdirSync(join(dist, 'pages'), { recursive: true });
  const table: Record<string, string> = {};
  for (const path of entry.prerenderedPaths) {
    const file = `pages/${path === '/' ? 'index' : path.slice(1).replace(/[/:]+/g, '-')}.html`;
    // A pattern's page is rendered for a stand-in value; it shows nothing that depends on it.
    const html = await entry.renderPage(path.replace(/:\w+/g, '-'));
    writeFileSync(join(dist, file), withRoot(` data-prerendered="${path}"`, html));
    table[path] = file;
  }
  writeFileSync(join(dist, 'prerendered.json'), `${JSON.stringify(table, null, 2)}\n`);
  console.log(`prerendered ${Object.keys(table).join(', ')} and the app shell`);
} finally {
  rmSync(ssrOut, { recursive: true, force: true });
}

/** The entry stylesheet (a few KiB) goes into the page: no render-blocking request before the first paint. */
function inlineStylesheet(html: string): string {
  return html.replace(/<link rel="stylesheet" crossorigin href="\/assets\/([^"]+\.css)">/, (_tag, file: string) => {
    const css = readFileSync(join(dist, 'assets', file), 'utf8');
    return `<style>${css.replaceAll('</style', '<\\/style')}</style>`;
  });
}
