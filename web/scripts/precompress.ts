/**
 * After the build: a brotli and a gzip copy beside every text file in dist, made once at the
 * highest levels, so the server negotiates them instead of compressing on every request. Gzip
 * matters as much as brotli: browsers offer brotli only to HTTPS and localhost, so a phone on
 * plain HTTP (http://<server address>:3000) gets gzip. Zopfli makes gzip ~3 % smaller than zlib -9.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';

const dist = new URL('../dist', import.meta.url).pathname;
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|webmanifest|txt)$/;
// Below this the headers outweigh the saving.
const MIN_BYTES = 512;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

async function precompress(path: string) {
  const bytes = readFileSync(path);
  const variants = {
    br: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
    gz: await gzipAsync(bytes, { numiterations: 15 }),
  };
  for (const [suffix, compressed] of Object.entries(variants)) {
    // Only where it helps: the server falls back to the file itself.
    if (compressed.length < bytes.length) writeFileSync(`${path}.${suffix}`, compressed);
  }
}

const targets = [...files(dist)].filter((path) => COMPRESSIBLE.test(path) && statSync(path).size >= MIN_BYTES);
await Promise.all(targets.map(precompress));
console.log(`precompressed ${targets.length} files (brotli and zopfli gzip)`);
