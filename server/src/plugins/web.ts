import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES, type Language, pageLanguageOf } from '@csomag/domain/language';
import { messages } from '@csomag/domain/messages';
import { PARCEL_ID_PATTERN } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { refuse } from '../errors.ts';

/**
 * What the web build rendered (web/scripts/prerender.ts), in each language: per URL path, the page's
 * HTML file (a `:name` segment matches any one segment, `/CsomagKovetes/:packageId`), and the app
 * shell every other page starts from.
 */
const byLanguage = z.partialRecord(z.enum(LANGUAGES), z.string());
const prerenderedSchema = z.object({ shell: byLanguage, pages: z.record(z.string().startsWith('/'), byLanguage) });

/** Finds the page for a request path in a language: its prerendered page, else the shell. */
function readPrerendered(webDist: string): (pathname: string, language: Language) => string {
  const file = join(webDist, 'prerendered.json');
  if (!existsSync(file)) return () => 'index.html';
  const { shell, pages } = prerenderedSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  for (const page of [...Object.values(shell), ...Object.values(pages).flatMap((files) => Object.values(files))]) {
    if (!existsSync(join(webDist, page))) throw new Error(`prerendered.json names ${page}, which is not in ${webDist}`);
  }
  const routes = Object.entries(pages).map(([path, files]) => {
    // Browsers send non-ASCII paths percent-encoded; URL encodes a pattern's literal parts the same way.
    const segments = new URL(path, 'http://x').pathname.split('/');
    const pattern = segments.map((segment) => (segment.startsWith(':') ? '[^/]+' : escapeRegExp(segment))).join('/');
    return { matches: new RegExp(`^${pattern}$`), files };
  });
  return (pathname, language) => {
    const files = routes.find((route) => route.matches.test(pathname))?.files ?? shell;
    return files[language] ?? files[DEFAULT_LANGUAGE] ?? 'index.html';
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A browser navigating asks for HTML; an image or a script that is not in the build (a map tile
 * under a wrong TILE_URL, /favicon.ico) must get a 404, not the app. Clients that say nothing
 * particular (no Accept, or any type) get the page.
 */
function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (request.url.startsWith('/assets/')) return false;
  const accept = request.headers.accept;
  return accept === undefined || accept === '*/*' || accept.includes('text/html');
}

/**
 * Serves the built SPA, so one process is the whole product (docs/decisions/0007): files of the
 * build as they are, a prerendered page where the build made one, the SPA shell for any other
 * page. Each in its precompressed form when the browser accepts it. Nothing here is rate limited.
 */
export async function registerWeb(app: FastifyInstance, webDist: string | undefined) {
  if (webDist === undefined || !existsSync(join(webDist, 'index.html'))) {
    app.setNotFoundHandler(() => {
      throw refuse('not_found', messages.notFound);
    });
    return;
  }
  const prerenderedPage = readPrerendered(webDist);
  const assets = join(webDist, 'assets') + sep;
  await app.register(fastifyStatic, {
    root: webDist,
    // One route per file found at start: any other path reaches the 404 handler below.
    wildcard: false,
    index: false,
    preCompressed: true,
    // The compressed siblings are chosen by Accept-Encoding, never asked for by name; source maps stay private.
    globIgnore: ['**/*.br', '**/*.gz', '**/*.map'],
    // @fastify/send's own Cache-Control would override the one set below.
    cacheControl: false,
    setHeaders(res, path) {
      // Vite's hashed assets never change; anything else (pages, favicon, the service worker /sw.js and
      // /manifest.webmanifest, whose names are fixed) must be revalidated, or a new build never reaches phones.
      res.setHeader('cache-control', path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache');
      // A page is chosen by its language too (prerenderedPage).
      res.setHeader(
        'vary',
        /\.html(\.br|\.gz)?$/.test(path) ? 'accept-encoding, accept-language, cookie' : 'accept-encoding',
      );
    },
  });
  app.setNotFoundHandler((request, reply) => {
    if (!isPageRequest(request)) throw refuse('not_found', messages.notFound);
    const pathname = request.url.split('?', 1)[0] ?? '';
    const language = pageLanguageOf(request.cookies[LANGUAGE_COOKIE], request.headers['accept-language']);
    const parcelId = trackedParcel(pathname);
    // The tracking page's data is asked for with the page, not after its scripts (issue 30).
    if (parcelId) reply.header('link', `</api/tracking/${parcelId}>; rel=preload; as=fetch; crossorigin`);
    return reply.sendFile(prerenderedPage(pathname, language));
  });
}

const trackingPrefix = `${paths.trackingSearch}/`;

/** The parcel id of a tracking page's path (`/CsomagKovetes/<id>`), when it is one. */
function trackedParcel(pathname: string): string | null {
  if (!pathname.startsWith(trackingPrefix)) return null;
  // As the page will ask for it: the id as written in the address, when it is one.
  const id = pathname.slice(trackingPrefix.length);
  return PARCEL_ID_PATTERN.test(id) ? id : null;
}
