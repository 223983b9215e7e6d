import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { messages } from '@csomag/domain/messages';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { refuse } from '../errors.ts';

/**
 * URL path → HTML file in the build, written by the web build beside its pages. A `:name`
 * segment matches any one segment (`/CsomagKovetes/:packageId`).
 */
const prerenderedSchema = z.record(z.string().startsWith('/'), z.string());

/** Finds the prerendered page for a request path; none when the build wrote no manifest. */
function readPrerendered(webDist: string): (pathname: string) => string | undefined {
  const file = join(webDist, 'prerendered.json');
  if (!existsSync(file)) return () => undefined;
  const pages = prerenderedSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  const routes = Object.entries(pages).map(([path, page]) => {
    if (!existsSync(join(webDist, page))) throw new Error(`prerendered.json names ${page}, which is not in ${webDist}`);
    // Browsers send non-ASCII paths percent-encoded; URL encodes a pattern's literal parts the same way.
    const segments = new URL(path, 'http://x').pathname.split('/');
    const pattern = segments.map((segment) => (segment.startsWith(':') ? '[^/]+' : escapeRegExp(segment))).join('/');
    return { matches: new RegExp(`^${pattern}$`), page };
  });
  return (pathname) => routes.find((route) => route.matches.test(pathname))?.page;
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
      res.setHeader('vary', 'accept-encoding');
    },
  });
  app.setNotFoundHandler((request, reply) => {
    if (!isPageRequest(request)) throw refuse('not_found', messages.notFound);
    return reply.sendFile(prerenderedPage(request.url.split('?', 1)[0] ?? '') ?? 'index.html');
  });
}
