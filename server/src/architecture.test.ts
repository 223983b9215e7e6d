import { readdirSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { join } from 'node:path';
import { parse } from '@babel/parser';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** Rules about where code lives that no type or lint rule holds (docs/ARCHITECTURE.md). */

const root = join(import.meta.dirname, '../..');

/** Every file under `dir`, as a path from the repository's root. */
const filesUnder = (dir: string) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((path) => join(dir, path));

/** The app's own source under `dir`: no tests, no test harness, no declarations. */
function sourceFiles(dir: string): string[] {
  return filesUnder(dir)
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

/** Attributes a person reads or hears: their text comes from the catalogue too. */
const READ_ATTRIBUTES = new Set(['aria-label', 'aria-description', 'title', 'placeholder', 'alt', 'label']);
const WORD = /\p{L}{2,}/u;

/**
 * Each text written into a component's markup, in any language (issue 30): JSX text with a word
 * in it, and a read attribute given as a string, as "file:line: text".
 */
function typedTexts(file: string): string[] {
  const source = readFileSync(join(root, file), 'utf8');
  const ast = parse(source, { sourceType: 'module', plugins: ['typescript', 'jsx'] });
  const found: string[] = [];
  const report = (line: number | undefined, text: string) => found.push(`${file}:${line ?? 0}: ${text.trim()}`);
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const n = node as { type?: string; value?: unknown; name?: { name?: unknown }; loc?: { start: { line: number } } };
    if (n.type === 'JSXText' && typeof n.value === 'string' && WORD.test(n.value)) report(n.loc?.start.line, n.value);
    if (n.type === 'JSXAttribute' && READ_ATTRIBUTES.has(String(n.name?.name))) {
      const value = (node as { value?: { type?: string; value?: unknown } }).value;
      if (value?.type === 'StringLiteral' && typeof value.value === 'string' && WORD.test(value.value)) {
        report(n.loc?.start.line, `${String(n.name?.name)}="${value.value}"`);
      }
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'loc' || key === 'start' || key === 'end') continue;
      if (Array.isArray(child)) child.forEach(visit);
      else if (child && typeof child === 'object') visit(child);
    }
  };
  visit(ast.program);
  return found;
}

describe('texts', () => {
  it('writes no Hungarian outside domain/: every text a person reads comes from its messages', () => {
    const files = [...sourceFiles('server/src'), ...sourceFiles('web/src')];
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(hungarianLines)).toEqual([]);
  });

  it('reads the catalogue by key names only: the web build loads the areas of the keys a module names', () => {
    // web/vite-texts.ts finds `messages.<key>`; a computed key or the whole object passed on would
    // read texts whose area nothing loaded.
    const files = [...sourceFiles('web/src'), ...sourceFiles('domain/src')].filter(
      (path) => !path.startsWith('domain/src/messages') && path !== 'web/src/i18n/texts.ts',
    );
    const offenders = files.flatMap((file) =>
      codeLines(file)
        .filter(({ code }) => /\bmessages\s*\[|\bmessages\s*[,)]|\.\.\.messages\b|=\s*messages\s*;/.test(code))
        .map(({ line, code }) => `${file}:${line}: ${code.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it('writes no text of any language into a component: both languages read the same markup', () => {
    const components = sourceFiles('web/src').filter((path) => path.endsWith('.tsx'));
    expect(components.length).toBeGreaterThan(50);
    expect(components.flatMap(typedTexts)).toEqual([]);
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

/** `file`'s code without its comments, line by line (a `//` inside a string is rare here and only hides a line). */
function codeLines(file: string): { line: number; code: string }[] {
  const source = readFileSync(join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, (comment) =>
    comment.replace(/[^\n]/g, ' '),
  );
  return source.split('\n').map((text, index) => ({ line: index + 1, code: text.replace(/(^|[^:'"`])\/\/.*$/, '$1') }));
}

describe('one rule per question', () => {
  /**
   * "May X do Y to Z" is answered by the resource's policy (modules/<area>/policy.ts, src/policy.ts):
   * a route or service that compares a role, or an account's id with a parcel's, a trip's or an
   * offer's, decides a permission or a relationship by hand — the copies issue 24 removed.
   */
  const BY_HAND = [
    // a role compared: actor.role === 'runner', 'superadmin' !== account.role
    /\.role\s*[!=]==|[!=]==\s*[\w?.]+\.role\b/,
    // an account's id compared with another id: parcel.sender_id === actor.id, runner.id !== row.runner_id
    /(\b\w+_id|\.id|\btaken_by)\s*[!=]==\s*[\w?.]*(\.id|_id|Id)\b/,
    // an address compared with a parcel's destination: the receiver, defined once
    /(address_key|receiver_key)\s*[!=]==/,
  ];
  const isPolicy = (path: string) => path.endsWith('/policy.ts') || path === 'server/src/policy.ts';
  // The custody chain compares parties as data (is the chain's last holder the parcel's?): its sameParty.
  const comparesParties = (path: string) => path === 'server/src/modules/relay/chain.ts';

  it('leaves every role and relationship to the policies', () => {
    const files = sourceFiles('server/src').filter(
      (path) =>
        !isPolicy(path) &&
        !comparesParties(path) &&
        !path.startsWith('server/src/seed/') &&
        !path.startsWith('server/src/db/'),
    );
    const offenders = files.flatMap((file) =>
      codeLines(file)
        .filter(({ code }) => BY_HAND.some((pattern) => pattern.test(code)))
        .map(({ line, code }) => `${file}:${line}: ${code.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it('would see a role or a relationship decided by hand', () => {
    for (const code of [
      "if (actor.role === 'superadmin') return;",
      'const sends = parcel.sender_id === actor.id;',
      'if (current.runner_id !== runner.id) throw refuse();',
      'offer.taken_by !== taker.id',
      'actor.address_key === parcel.receiver_key',
    ]) {
      expect(
        BY_HAND.some((pattern) => pattern.test(code)),
        code,
      ).toBe(true);
    }
  });
});

describe('tests share a module graph', () => {
  // vitest.config.ts runs each worker's files in one module graph (isolate: false): a module mocked or
  // a global stubbed by one file would still be so in the next.
  const LEAKING = /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(/;

  it('mocks no module and stubs no global', () => {
    const tests = ['server/src', 'domain/src', 'web/src'].flatMap((dir) =>
      filesUnder(dir).filter((path) => /\.test\.tsx?$/.test(path)),
    );
    expect(tests.length).toBeGreaterThan(100);
    const offenders = tests.flatMap((file) =>
      codeLines(file)
        .filter(({ code }) => LEAKING.test(code))
        .map(({ line, code }) => `${file}:${line}: ${code.trim()}`),
    );
    expect(offenders).toEqual([]);
  });
});
