/**
 * After `vite build` and the prerender step: the service worker must precache every script and
 * stylesheet the build emitted — the entry chunk and each route's lazy chunk — and the app shell,
 * or the app installed on a phone opens blank offline. Workbox leaves out a file over its size limit
 * with only a warning; this fails the build instead (docs/decisions/0019-installable-app-and-outbox.md).
 *
 * The prerender step rewrites index.html after Workbox hashed it, so the shell's revision in sw.js is
 * set here to the file as served: a changed shell always reaches installed apps.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The build's folder; another may be named (to try the check on a copy).
const dist = process.argv[2] ?? new URL('../dist', import.meta.url).pathname;
const swPath = join(dist, 'sw.js');
const SHELL = 'index.html';

interface Entry {
  url: string;
  revision: string | null;
}

const sw = readFileSync(swPath, 'utf8');
const injected = /\[\{"revision":[^\]]*\]/.exec(sw);
if (!injected)
  throw new Error('sw.js holds no precache manifest: was self.__WB_MANIFEST removed from src/sw/index.ts?');
const entries = JSON.parse(injected[0]) as Entry[];
const precached = new Set(entries.map((entry) => entry.url));

const emitted = readdirSync(join(dist, 'assets'))
  .filter((name) => /\.(?:js|css)$/.test(name))
  .map((name) => `assets/${name}`);
const required = [...emitted, SHELL, 'manifest.webmanifest'];
const missing = required.filter((url) => !precached.has(url));
if (missing.length > 0) {
  console.error(`The service worker does not precache ${missing.length} file(s) of the build:`);
  for (const url of missing) console.error(`  ${url}`);
  console.error('Raise MAX_PRECACHED_BYTES in web/vite.config.ts or check injectManifest.globPatterns.');
  process.exit(1);
}

const shellRevision = createHash('md5')
  .update(readFileSync(join(dist, SHELL)))
  .digest('hex');
const updated = entries.map((entry) => (entry.url === SHELL ? { ...entry, revision: shellRevision } : entry));
writeFileSync(
  swPath,
  sw.replace(injected[0], () => JSON.stringify(updated)),
);
console.log(`precache checked: ${entries.length} entries, every one of ${emitted.length} scripts and stylesheets`);
