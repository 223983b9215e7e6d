/**
 * Lighthouse: Lighthouse 12's mobile preset (its default config: a mid-range phone, simulated slow
 * 4G and 4× CPU throttling) against the production server (node server/dist/main.js over a fresh
 * temp data dir), performance and accessibility, on the landing page, sign-in and a tracking page
 * opened cold from a shared link; each page --runs times in a fresh Chromium. Prints per page the
 * median scores ×100 and the median FCP, LCP, TBT, CLS and Speed Index, and the LCP element of the
 * median run — where to start optimising. Prints the targets as information; never fails on a score
 * (DESIGN §8). A run that fails prints its error and the benchmark goes on.
 *
 *   npm run bench:lighthouse -- [--runs 3] [--build] [--language hu|en]
 *
 * --language: the language the browser asks for (issue 30): English pages load their catalogue first.
 *   WEB_DIST=/path/to/dist npm run bench:lighthouse     (another web build, served by the same server)
 */
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { chromiumFlags, chromiumPath } from '../e2e/chromium.ts';
import { machine } from './lib/app-process.ts';
import { createSharedParcel, startProductionServer } from './lib/production-server.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    build: { type: 'boolean', default: false },
    language: { type: 'string', default: 'hu' },
  },
});
const runs = Math.max(1, Number(values.runs) || 3);
const browserLanguage = values.language === 'en' ? 'en-GB' : 'hu-HU';

interface Run {
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  speedIndex: number;
  lcpElement: string;
  warnings: string[];
  benchmarkIndex: number;
}

/** The first `node` (selector, snippet) in an audit's details, however deeply Lighthouse nests it. */
function firstNode(details: unknown): { selector?: string; snippet?: string; nodeLabel?: string } | undefined {
  if (!details || typeof details !== 'object') return undefined;
  const record = details as Record<string, unknown>;
  if (record.type === 'node') return record as { selector?: string; snippet?: string; nodeLabel?: string };
  if (record.node && typeof record.node === 'object') return firstNode(record.node);
  for (const value of Object.values(record)) {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      const found = typeof item === 'object' ? firstNode(item) : undefined;
      if (found) return found;
    }
  }
  return undefined;
}

function read(lhr: Result): Run {
  if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const score = (id: string) => (lhr.categories[id]?.score ?? Number.NaN) * 100;
  const node = firstNode(lhr.audits['largest-contentful-paint-element']?.details);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    fcp: numeric('first-contentful-paint'),
    lcp: numeric('largest-contentful-paint'),
    tbt: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    speedIndex: numeric('speed-index'),
    lcpElement: node
      ? `${node.selector ?? '?'}  ${node.snippet ?? ''}  “${(node.nodeLabel ?? '').replace(/\s+/g, ' ').slice(0, 100)}”`
      : '(none)',
    warnings: lhr.runWarnings.map(String),
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

/** One Lighthouse navigation in its own Chromium (a clean profile: cold cache, no service worker). */
async function audit(url: string): Promise<Run> {
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    // The language a browser asks for (issue 30): Hungarian, the default, or English with --language en.
    chromeFlags: ['--headless', `--lang=${browserLanguage}`, `--accept-lang=${browserLanguage}`, ...chromiumFlags],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    });
    if (!result) throw new Error('Lighthouse returned no result');
    return read(result.lhr);
  } finally {
    chrome.kill();
  }
}

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const ms = (value: number) => `${Math.round(value)} ms`;

const machineAtStart = machine();
const server = await startProductionServer({ build: values.build });
const summary: string[] = [];
try {
  // Without a parcel there is no tracking page to audit; the other pages still are.
  const trackingPath = await createSharedParcel(server.origin).then(
    (shared) => shared.trackingPath,
    (error: unknown) => new Error(`no parcel to track: ${error instanceof Error ? error.message : error}`),
  );
  const pages: [label: string, path: string | Error][] = [
    ['landing', '/'],
    ['sign-in', '/Bejelentkezes'],
    ['tracking detail, opened cold from a shared link', trackingPath],
  ];
  const { version } = createRequire(import.meta.url)('lighthouse/package.json') as { version: string };
  console.log(`Lighthouse ${version}`);
  console.log(`${new Date().toISOString()}; ${machineAtStart}`);
  console.log(
    `mobile preset (simulated throttling), performance + accessibility, median of ${runs} run(s) per page;` +
      ` server ${server.origin}, web build ${server.webDist}; browser ${chromiumPath} asking for ${browserLanguage}`,
  );
  for (const [label, path] of pages) {
    if (path instanceof Error) {
      console.log(`\n${label}\n  not audited: ${path.message}`);
      summary.push(`${label.padEnd(48)} not audited`);
      continue;
    }
    console.log(`\n${label}  ${path}`);
    const done: Run[] = [];
    for (let i = 0; i < runs; i++) {
      try {
        const run = await audit(`${server.origin}${path}`);
        done.push(run);
        console.log(
          `  run ${i + 1}: performance ${run.performance.toFixed(0)}, accessibility ${run.accessibility.toFixed(0)},` +
            ` LCP ${ms(run.lcp)}, TBT ${ms(run.tbt)}`,
        );
      } catch (error) {
        console.log(`  run ${i + 1} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (done.length === 0) {
      summary.push(`${label.padEnd(48)} no run succeeded`);
      continue;
    }
    const m = (key: keyof Omit<Run, 'lcpElement' | 'warnings'>) => median(done.map((run) => run[key]));
    const medianRun = [...done].sort((a, b) => a.performance - b.performance)[Math.floor(done.length / 2)] ?? done[0];
    console.log(
      `  median: performance ${m('performance').toFixed(0)}, accessibility ${m('accessibility').toFixed(0)};` +
        ` FCP ${ms(m('fcp'))}, LCP ${ms(m('lcp'))}, TBT ${ms(m('tbt'))}, CLS ${m('cls').toFixed(3)},` +
        ` Speed Index ${ms(m('speedIndex'))}`,
    );
    console.log(`  LCP element (median run): ${medianRun?.lcpElement}`);
    console.log(`  Lighthouse's CPU benchmark index: ${m('benchmarkIndex').toFixed(0)}`);
    for (const warning of new Set(done.flatMap((run) => run.warnings))) console.log(`  Lighthouse warns: ${warning}`);
    summary.push(
      `${label.padEnd(48)} ${m('performance').toFixed(0).padStart(4)} ${m('accessibility').toFixed(0).padStart(5)}` +
        ` ${ms(m('fcp')).padStart(8)} ${ms(m('lcp')).padStart(8)} ${ms(m('tbt')).padStart(8)} ${m('cls').toFixed(3).padStart(6)}` +
        ` ${ms(m('speedIndex')).padStart(8)}`,
    );
  }
} finally {
  await server.close();
}

console.log(
  `\n${'page (medians)'.padEnd(48)} ${'perf'.padStart(4)} ${'a11y'.padStart(5)} ${'FCP'.padStart(8)} ${'LCP'.padStart(8)}` +
    ` ${'TBT'.padStart(8)} ${'CLS'.padStart(6)} ${'SI'.padStart(8)}`,
);
for (const line of summary) console.log(line);
console.log('\ntargets (information only; a benchmark never fails on a score): performance ≥ 95, accessibility 100');
