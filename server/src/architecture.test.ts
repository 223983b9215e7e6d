import { readdirSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** Rules about where code lives that no type or lint rule holds (docs/ARCHITECTURE.md). */

const root = join(import.meta.dirname, '../..');

/** The app's own source under `dir`: no tests, no test harness, no declarations. */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .map((path) => join(dir, path))
    .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path) && !path.endsWith('.d.ts'))
    .filter((path) => !path.startsWith('server/src/test/'));
}

const HUNGARIAN_LETTER = /[áéíóöőúüűÁÉÍÓÖŐÚÜŰ]/;
const HUNGARIAN_LETTERS = new RegExp(HUNGARIAN_LETTER.source, 'g');

/**
 * Each line of `file` whose code (not comments) holds a Hungarian letter, as "file:line: text".
 * Minified by esbuild, the code keeps no comments, so what is left with such a letter is a string,
 * a template or JSX text; its source map leads back to the line as written.
 */
function hungarianLines(file: string): string[] {
  const source = readFileSync(join(root, file), 'utf8');
  if (!HUNGARIAN_LETTER.test(source)) return [];
  const { code, map } = transformSync(source, {
    loader: 'tsx',
    charset: 'utf8',
    minifyWhitespace: true,
    legalComments: 'none',
    sourcemap: 'external',
    sourcefile: file,
  });
  const sourceMap = new SourceMap(JSON.parse(map) as SourceMapPayload);
  const sourceLines = source.split('\n');
  const found = new Set<number>();
  code.split('\n').forEach((line, generatedLine) => {
    for (const { index } of line.matchAll(HUNGARIAN_LETTERS)) {
      const entry = sourceMap.findEntry(generatedLine, index);
      if (!('originalLine' in entry)) continue;
      // A template literal keeps its line breaks: the lines after its first have no mapping of their own.
      let at = entry.originalLine + (generatedLine - entry.generatedLine);
      // JSX text starts right after the tag's ">", often a line above the words.
      while (at < sourceLines.length - 1 && !HUNGARIAN_LETTER.test(sourceLines[at] ?? '')) at++;
      found.add(at);
    }
  });
  return [...found].sort((a, b) => a - b).map((line) => `${file}:${line + 1}: ${(sourceLines[line] ?? '').trim()}`);
}

describe('texts', () => {
  it('writes no Hungarian outside domain/: every text a person reads comes from its messages', () => {
    const files = [...sourceFiles('server/src'), ...sourceFiles('web/src')];
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(hungarianLines)).toEqual([]);
  });
});

describe('the one write path', () => {
  // Bulk benchmark data (seed/scale.ts) is loaded, not changed: nobody listens while it is written.
  const allowed = new Set(['server/src/modules/parcels/changes.ts', 'server/src/seed/scale.ts']);

  // A change message is published as `publish({ kind, parcelId, … })` inside a change-feed transaction.
  it('keeps inserts into parcel_events and calls to publish inside modules/parcels/changes.ts', () => {
    const offenders = sourceFiles('server/src')
      .filter((path) => !allowed.has(path) && !path.startsWith('server/src/db/'))
      .filter((path) =>
        /insertInto\(\s*'parcel_events'\s*\)|\bpublish\(\s*\{/.test(readFileSync(join(root, path), 'utf8')),
      );
    expect(offenders).toEqual([]);
  });
});
