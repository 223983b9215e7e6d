/**
 * Bundle: what the landing page downloads first — index.html, the entry script and stylesheet it
 * references, the modulepreload links and every chunk those import statically — against everything
 * the production build ships, raw and gzipped (level 6, as a typical server). Then checks, by printing,
 * that Leaflet, qrcode and the map code stay out of that first download (DESIGN §6: maps, QR and
 * other heavy code load lazily). Never fails on a size (DESIGN §8).
 *
 *   npm run bench:bundle -- [--build]     (builds with `npm run build` when web/dist is missing)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const { values } = parseArgs({ options: { build: { type: 'boolean', default: false } } });
const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'web', 'dist');

if (values.build || !existsSync(join(dist, 'index.html'))) {
  console.log(`${values.build ? 'building' : 'web/dist is missing: building'} with npm run build …`);
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('npm run build failed: no figures');
    process.exit(1);
  }
}

interface Asset {
  path: string;
  raw: number;
  gzip: number;
}
const sizeOf = (file: string): Asset => {
  const bytes = readFileSync(file);
  return { path: relative(dist, file), raw: bytes.length, gzip: gzipSync(bytes, { level: 6 }).length };
};
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Every file the build ships (source maps are for developers, not downloaded). */
function shipped(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) return shipped(file);
    return name.endsWith('.map') ? [] : [file];
  });
}

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const attribute = (tag: string, name: string) => new RegExp(`\\b${name}=["']([^"']+)["']`).exec(tag)?.[1];
const fromHtml = new Set<string>();
const reasons = new Map<string, string>();
for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
  const rel = attribute(tag, 'rel');
  const url = tag.startsWith('<script') ? attribute(tag, 'src') : attribute(tag, 'href');
  if (!url || /^[a-z]+:/i.test(url)) continue;
  const why = tag.startsWith('<script')
    ? 'entry script'
    : rel === 'modulepreload'
      ? 'modulepreload'
      : rel === 'stylesheet'
        ? 'stylesheet'
        : undefined;
  if (!why) continue; // the icon and the like: not part of the first render
  const path = url.replace(/^\//, '');
  fromHtml.add(path);
  reasons.set(path, why);
}

/** Static `import … from "./x.js"` / `export … from` / `import "./x.js"`: fetched before the module runs. */
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
const first = new Set<string>();
const queue = [...fromHtml];
while (queue.length > 0) {
  const path = queue.shift() as string;
  if (first.has(path)) continue;
  first.add(path);
  if (!path.endsWith('.js')) continue;
  const code = readFileSync(join(dist, path), 'utf8');
  for (const [, specifier] of code.matchAll(STATIC_IMPORT)) {
    const target = posix.normalize(posix.join(posix.dirname(path), specifier as string));
    if (!reasons.has(target)) reasons.set(target, `static import of ${posix.basename(path)}`);
    if (!first.has(target)) queue.push(target);
  }
}
first.add('index.html');
reasons.set('index.html', 'the page');

const all = shipped(dist).map(sizeOf);
const byPath = new Map(all.map((asset) => [asset.path, asset]));
const firstAssets = [...first].map((path) => byPath.get(path) ?? sizeOf(join(dist, path)));
const sum = (assets: Asset[], key: 'raw' | 'gzip') => assets.reduce((total, asset) => total + asset[key], 0);
const kind = (path: string) => (path.endsWith('.js') ? 'js' : path.endsWith('.css') ? 'css' : 'other');

console.log(`\nBundle — web/dist built ${statSync(join(dist, 'index.html')).mtime.toISOString()}`);
console.log('\nfirst download of the landing page (gzip level 6):');
for (const asset of firstAssets.sort((a, b) => b.gzip - a.gzip)) {
  console.log(
    `  ${asset.path.padEnd(40)} ${kib(asset.raw).padStart(11)} ${kib(asset.gzip).padStart(11)} gz  ${reasons.get(asset.path) ?? ''}`,
  );
}
console.log(
  `  ${'total'.padEnd(40)} ${kib(sum(firstAssets, 'raw')).padStart(11)} ${kib(sum(firstAssets, 'gzip')).padStart(11)} gz` +
    `  (${firstAssets.length} files)`,
);
for (const k of ['js', 'css', 'other'] as const) {
  const everything = all.filter((asset) => kind(asset.path) === k);
  const firstOfKind = firstAssets.filter((asset) => kind(asset.path) === k);
  console.log(
    `everything shipped, ${k.padEnd(5)} ${String(everything.length).padStart(3)} files ${kib(sum(everything, 'raw')).padStart(11)} ${kib(sum(everything, 'gzip')).padStart(11)} gz;` +
      ` first download ${kib(sum(firstOfKind, 'gzip'))} gz`,
  );
}
const share = sum(firstAssets, 'gzip') / sum(all, 'gzip');
console.log(
  `everything shipped, all   ${String(all.length).padStart(3)} files ${kib(sum(all, 'raw')).padStart(11)} ${kib(sum(all, 'gzip')).padStart(11)} gz;` +
    ` the first download is ${(share * 100).toFixed(0)} % of it`,
);

/** Base64 VLQ, as in source maps: each segment's fields are deltas. */
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function decodeSegment(segment: string): number[] {
  const fields: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return fields;
}
/** Where a chunk's minified bytes come from: each byte is charged to the source its mapping names. */
function bytesBySource(path: string): Map<string, number> {
  const charged = new Map<string, number>();
  const mapFile = join(dist, `${path}.map`);
  if (!existsSync(mapFile)) return charged;
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[]; mappings: string };
  const lines = readFileSync(join(dist, path), 'utf8').split('\n');
  let source = 0;
  map.mappings.split(';').forEach((mappingLine, lineIndex) => {
    const length = lines[lineIndex]?.length ?? 0;
    let column = 0;
    let start = 0;
    let owner: string | undefined;
    const charge = (end: number) => {
      const name = owner ?? '(unmapped)';
      charged.set(name, (charged.get(name) ?? 0) + Math.max(0, end - start));
    };
    for (const segment of mappingLine.split(',')) {
      if (!segment) continue;
      const fields = decodeSegment(segment);
      column += fields[0] ?? 0;
      charge(column);
      start = column;
      if (fields.length >= 4) {
        source += fields[1] ?? 0;
        owner = map.sources[source];
      } else owner = undefined;
    }
    charge(length);
  });
  return charged;
}
/** node_modules/<package> or the app's own src/<folder>. */
function packageOf(source: string): string {
  const parts = source.split('/');
  const modules = parts.lastIndexOf('node_modules');
  if (modules !== -1) {
    const name = parts[modules + 1] ?? '?';
    return name.startsWith('@') ? `${name}/${parts[modules + 2] ?? '?'}` : name;
  }
  const src = parts.lastIndexOf('src');
  if (src !== -1) {
    const owner = parts[src - 1] && parts[src - 1] !== '..' ? parts[src - 1] : 'web';
    return `${owner}/src/${parts.length - src > 2 ? (parts[src + 1] ?? '') : ''}`;
  }
  return source;
}
const byPackage = new Map<string, number>();
for (const asset of firstAssets.filter((a) => a.path.endsWith('.js'))) {
  for (const [source, bytes] of bytesBySource(asset.path)) {
    const name = packageOf(source);
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytes);
  }
}
if (byPackage.size > 0) {
  const firstJs = sum(
    firstAssets.filter((a) => a.path.endsWith('.js')),
    'raw',
  );
  console.log('\nwhat the first download’s JS is made of (minified bytes, from the source maps):');
  for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
    console.log(
      `  ${name.padEnd(40)} ${kib(bytes).padStart(11)}  ${((bytes / firstJs) * 100).toFixed(0).padStart(3)} %`,
    );
  }
}

/** What went into a chunk, from its source map (the build writes them); empty when there is none. */
function sourcesOf(path: string): string[] {
  const map = join(dist, `${path}.map`);
  if (!existsSync(map)) return [];
  const { sources = [] } = JSON.parse(readFileSync(map, 'utf8')) as { sources?: string[] };
  return sources.map((source) => posix.normalize(posix.join(posix.dirname(path), source)));
}
const checks: [label: string, inSources: RegExp, inCode: RegExp][] = [
  ['Leaflet (leaflet, react-leaflet)', /node_modules\/(?:leaflet|react-leaflet|@react-leaflet)\//, /leaflet/i],
  ['qrcode (qrcode.react)', /node_modules\/qrcode[^/]*\//, /qrcode/i],
  ['the map code (web/src/map/map-view, markers)', /src\/map\/(?:map-view|markers)\./, /leaflet-container/],
];
console.log('\nkept out of the first download?');
for (const [label, inSources, inCode] of checks) {
  const firstHits = firstAssets.filter(
    (asset) =>
      sourcesOf(asset.path).some((source) => inSources.test(source)) ||
      (asset.path.endsWith('.js') && inCode.test(readFileSync(join(dist, asset.path), 'utf8'))),
  );
  const lazyHome = all
    .filter((asset) => asset.path.endsWith('.js') && !first.has(asset.path))
    .filter((asset) => sourcesOf(asset.path).some((source) => inSources.test(source)));
  const where = lazyHome.length
    ? `lazy in ${lazyHome.map((asset) => `${posix.basename(asset.path)} (${kib(asset.gzip)} gz)`).join(', ')}`
    : 'in no lazy chunk either';
  console.log(
    firstHits.length === 0
      ? `  yes  ${label}: ${where}`
      : `  NO   ${label}: in ${firstHits.map((asset) => asset.path).join(', ')}`,
  );
}

const lazyWrapper = firstAssets.some((asset) =>
  sourcesOf(asset.path).some((source) => /src\/map\/lazy-map\./.test(source)),
);
console.log(
  `  (the lazy wrapper src/map/lazy-map is ${lazyWrapper ? '' : 'not '}in the first download; it only imports the map on demand)`,
);
if (!existsSync(join(dist, `${firstAssets.find((asset) => asset.path.endsWith('.js'))?.path ?? ''}.map`))) {
  console.log(
    `  (no source maps in ${relative(root, dirname(join(dist, 'x')))}: the checks above searched the code only)`,
  );
}
