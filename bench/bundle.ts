/**
 * Bundle: the bytes a person's browser receives per page, measured in Chromium against the
 * production server (node server/dist/main.js over a fresh temp data dir) — not the gzip size of
 * files on disk (DESIGN §10). Each page is opened with a cold cache (a fresh browser context) and
 * left until the network is idle; then, per resource type, the requests and the body bytes
 * received on the wire (Playwright's request.sizes().responseBodySize: CDP's
 * Network.loadingFinished encodedDataLength minus the response headers, so compressed when the
 * server compresses) and the decoded size (the body the page got). Also every script with its wire
 * size and content-encoding, and whether the landing page loads anything that looks like Leaflet,
 * the map, QR code or the outbox. Map tiles come from a loopback origin that refuses (nothing is reachable
 * offline) and are left out of the figures. Prints the targets as information; never fails on a size (DESIGN §8).
 *
 *   npm run bench:bundle -- [--build] [--lan]     (builds with `npm run build` when a build is missing)
 *   WEB_DIST=/path/to/dist npm run bench:bundle     (another web build, served by the same server)
 */
import { posix } from 'node:path';
import { parseArgs } from 'node:util';
import { type Browser, chromium, type Request } from '@playwright/test';
import { chromiumFlags, chromiumPath } from '../e2e/chromium.ts';
import { machine } from './lib/app-process.ts';
import { createSharedParcel, startProductionServer, TILE_ORIGIN } from './lib/production-server.ts';

const { values } = parseArgs({
  options: { build: { type: 'boolean', default: false }, lan: { type: 'boolean', default: false } },
});
/**
 * With --lan, pages open at http://csomagkuldo.lan:<port> (mapped to 127.0.0.1 inside Chromium), as on
 * a home network without TLS: Chromium then offers only gzip and deflate, while on 127.0.0.1 (a
 * potentially trustworthy origin, like HTTPS) it also offers br and zstd.
 */
const LAN_HOST = 'csomagkuldo.lan';

const KINDS = ['document', 'script', 'stylesheet', 'fetch/xhr', 'image', 'other'] as const;
type Kind = (typeof KINDS)[number];
const kindOf = (request: Request): Kind => {
  const type = request.resourceType();
  if (type === 'document' || type === 'script' || type === 'stylesheet' || type === 'image') return type;
  if (type === 'fetch' || type === 'xhr' || type === 'eventsource') return 'fetch/xhr';
  return 'other';
};
const isTile = (url: string) => new URL(url).origin === TILE_ORIGIN;

interface Loaded {
  url: string;
  kind: Kind;
  status: number;
  /** Body bytes received (compressed when the server compressed). */
  wire: number;
  /** Body bytes after decoding. */
  decoded: number;
  encoding: string;
  /** What the browser offered (Accept-Encoding). */
  accepted: string;
  fromServiceWorker: boolean;
}

interface PageFigures {
  label: string;
  path: string;
  loaded: Loaded[];
  tiles: number;
  /** Requests that never finished while we watched (a live EventSource stream, say). */
  open: string[];
  failed: string[];
  /** Where the page ended up, when the app sent it elsewhere (a guard, say). */
  endedAt?: string;
  error?: string;
}

async function describe(request: Request): Promise<Loaded> {
  const response = await request.response();
  const sizes = await request.sizes();
  let decoded = 0;
  try {
    decoded = (await response?.body())?.length ?? 0;
  } catch {} // a redirect or an aborted body has none
  return {
    url: request.url(),
    kind: kindOf(request),
    status: response?.status() ?? 0,
    wire: sizes.responseBodySize,
    decoded,
    encoding: (await response?.headerValue('content-encoding')) ?? '-',
    accepted: (await request.allHeaders())['accept-encoding'] ?? '-',
    fromServiceWorker: request.serviceWorker() !== null,
  };
}

/** One cold load of `path`: a fresh context (empty cache), optionally signed in with `cookie`. */
async function measure(browser: Browser, origin: string, label: string, path: string, cookie?: string) {
  const figures: PageFigures = { label, path, loaded: [], tiles: 0, open: [], failed: [] };
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'hu-HU' });
  if (cookie) {
    const [name = '', value = ''] = cookie.split(/=(.*)/s);
    await context.addCookies([{ name, value, url: origin }]);
  }
  // undefined: not finished yet; null: finished, but its sizes could not be read (listed as failed).
  const pending = new Map<Request, Promise<Loaded | null | undefined>>();
  const watched = (request: Request) => !/^(data|blob):/.test(request.url());
  context.on('request', (request) => {
    if (!watched(request)) return;
    if (isTile(request.url())) figures.tiles++;
    else pending.set(request, Promise.resolve(undefined));
  });
  context.on('requestfinished', (request) => {
    if (!pending.has(request)) return;
    const described = describe(request).catch((error: unknown) => {
      figures.failed.push(`${request.url()} (sizes unreadable: ${error instanceof Error ? error.message : error})`);
      return null;
    });
    pending.set(request, described);
  });
  context.on('requestfailed', (request) => {
    if (!pending.has(request)) return;
    pending.delete(request);
    figures.failed.push(`${request.url()} (${request.failure()?.errorText ?? 'failed'})`);
  });
  try {
    const page = await context.newPage();
    await page.goto(`${origin}${path}`, { waitUntil: 'networkidle', timeout: 60_000 });
    const landedOn = new URL(page.url()).pathname;
    if (landedOn !== path) figures.endedAt = landedOn;
    for (const [request, loaded] of pending) {
      const value = await loaded;
      if (value) figures.loaded.push(value);
      else if (value === undefined) figures.open.push(`${request.resourceType()} ${request.url()}`);
    }
  } catch (error) {
    figures.error = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  } finally {
    await context.close();
  }
  return figures;
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const sum = (loaded: Loaded[], key: 'wire' | 'decoded') => loaded.reduce((total, item) => total + item[key], 0);
const chunkName = (url: string) => posix.basename(new URL(url).pathname);
const pageScripts = (figures: PageFigures | undefined) =>
  (figures?.loaded ?? []).filter((item) => item.kind === 'script' && !item.fromServiceWorker);

function print(figures: PageFigures) {
  console.log(`\n${figures.label}  ${figures.path}`);
  if (figures.error) console.log(`  could not load: ${figures.error}`);
  if (figures.endedAt) console.log(`  WARNING the app sent the page on to ${figures.endedAt}`);
  const page = figures.loaded.filter((item) => !item.fromServiceWorker);
  console.log(
    `  ${'type'.padEnd(12)} ${'requests'.padStart(8)} ${'wire KiB'.padStart(10)} ${'decoded KiB'.padStart(12)}`,
  );
  for (const kind of KINDS) {
    const ofKind = page.filter((item) => item.kind === kind);
    if (ofKind.length === 0) continue;
    console.log(
      `  ${kind.padEnd(12)} ${String(ofKind.length).padStart(8)} ${kib(sum(ofKind, 'wire')).padStart(10)} ${kib(sum(ofKind, 'decoded')).padStart(12)}`,
    );
  }
  console.log(
    `  ${'total'.padEnd(12)} ${String(page.length).padStart(8)} ${kib(sum(page, 'wire')).padStart(10)} ${kib(sum(page, 'decoded')).padStart(12)}`,
  );
  const worker = figures.loaded.filter((item) => item.fromServiceWorker);
  if (worker.length > 0) {
    console.log(
      `  + service worker: ${worker.length} requests, ${kib(sum(worker, 'wire'))} KiB wire (not in the total)`,
    );
  }
  const document = page.find((item) => item.kind === 'document');
  if (document) console.log(`  (the browser offered Accept-Encoding: ${document.accepted})`);
  console.log('  scripts (wire KiB, decoded KiB, content-encoding):');
  for (const script of pageScripts(figures).sort((a, b) => b.wire - a.wire)) {
    console.log(
      `    ${chunkName(script.url).padEnd(40)} ${kib(script.wire).padStart(8)} ${kib(script.decoded).padStart(9)}  ${script.encoding}`,
    );
  }
  if (figures.tiles > 0) console.log(`  (${figures.tiles} map tile requests left out: no tile server offline)`);
  if (figures.open.length > 0) console.log(`  (still open, not counted: ${figures.open.join(', ')})`);
  const errors = page.filter((item) => item.status >= 400);
  for (const item of errors) console.log(`  WARNING HTTP ${item.status}: ${item.url}`);
  for (const failure of figures.failed) console.log(`  WARNING failed: ${failure}`);
}

const machineAtStart = machine();
const server = await startProductionServer({ build: values.build });
const pageOrigin = values.lan ? `http://${LAN_HOST}:${server.port}` : server.origin;
const results: PageFigures[] = [];
let browser: Browser | undefined;
try {
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumFlags, ...(values.lan ? [`--host-resolver-rules=MAP ${LAN_HOST} 127.0.0.1`] : [])],
  });
  const shared = await createSharedParcel(server.origin);
  const pages: [label: string, path: string, cookie?: string][] = [
    ['landing', '/'],
    ['sign-in', '/Bejelentkezes'],
    ['tracking detail, opened cold from a shared link', shared.trackingPath],
    ['send a parcel (signed-in sender)', '/CsomagFeladas', shared.senderCookie],
  ];
  console.log(`Bundle — bytes on the wire per page, ${new Date().toISOString()}`);
  console.log(`${machineAtStart}`);
  console.log(
    `server: node server/dist/main.js at ${server.origin}, pages opened at ${pageOrigin}, web build ${server.webDist}; ` +
      `browser: ${chromiumPath} ${browser.version()}, 1280×900, cold cache per page, until network idle`,
  );
  for (const [label, path, cookie] of pages) {
    const figures = await measure(browser, pageOrigin, label, path, cookie);
    results.push(figures);
    print(figures);
  }
} finally {
  await browser?.close();
  await server.close();
}

console.log(
  `\n${'page'.padEnd(48)} ${'requests'.padStart(8)} ${'scripts KiB'.padStart(11)} ${'total KiB'.padStart(10)} ${'decoded KiB'.padStart(12)}`,
);
for (const figures of results) {
  const page = figures.loaded.filter((item) => !item.fromServiceWorker);
  console.log(
    `${figures.label.padEnd(48)} ${String(page.length).padStart(8)} ${kib(sum(pageScripts(figures), 'wire')).padStart(11)} ${kib(sum(page, 'wire')).padStart(10)} ${kib(sum(page, 'decoded')).padStart(12)}`,
  );
}

const [landing, , tracking] = results;
const target = (label: string, bytes: number, limitKiB: number) =>
  console.log(
    `  ${label}: ${kib(bytes)} KiB of ${limitKiB} KiB — ${bytes <= limitKiB * 1024 ? 'within' : 'over'} the target`,
  );
console.log('\ntargets (information only; a benchmark never fails on a size):');
target('landing page scripts on the wire', sum(pageScripts(landing), 'wire'), 90);
target('tracking detail scripts on the wire, its map included', sum(pageScripts(tracking), 'wire'), 180);

// By the chunk's name without Vite's content hash (a hash like `RYGLqrB5` is no QR code).
const heavy = pageScripts(landing).filter((script) =>
  /leaflet|map|qr|outbox/i.test(chunkName(script.url).replace(/-[\w-]{8}\.js$/, '')),
);
console.log(
  heavy.length === 0
    ? '\nno script on the landing page looks like Leaflet, the map, QR code or the outbox (by chunk name)'
    : `\non the landing page, scripts that look like Leaflet, the map, QR code or the outbox (by chunk name): ${heavy
        .map((script) => `${chunkName(script.url)} (${kib(script.wire)} KiB)`)
        .join(', ')}`,
);
