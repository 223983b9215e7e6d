/**
 * Summarises a V8 CPU profile (.cpuprofile, as written by `--cpu-prof`, e.g. bench:api --cpu-prof DIR):
 * the functions with the most self time, and the packages (node_modules/<name>, node: internals,
 * our own code) with the most self time, as shares of the sampled time without idle.
 *
 *   node --import tsx bench/profile-top.ts FILE.cpuprofile [--top 30] [--match text] [--from-ms 0] [--to-ms ∞]
 *
 * --match also prints the inclusive share of every function whose name or file contains the text
 * (time in it and in everything it called). --from-ms/--to-ms keep the samples taken in that window
 * after the profile started (leave out start-up and seeding: the steady state under load).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '30' },
    match: { type: 'string' },
    'from-ms': { type: 'string', default: '0' },
    'to-ms': { type: 'string', default: 'Infinity' },
  },
});
const file = positionals[0];
if (!file) throw new Error('usage: profile-top.ts FILE.cpuprofile [--top 30] [--match text]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const top = Number(values.top);

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const from = Number(values['from-ms']) * 1000;
const to = Number(values['to-ms']) * 1000;
const selfTime = new Map<number, number>();
let elapsed = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  elapsed += delta;
  if (elapsed >= from && elapsed <= to) selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
});

const isIdle = (node: ProfileNode) => ['(idle)', '(program)'].includes(node.callFrame.functionName);
let busy = 0;
for (const [id, time] of selfTime) if (!isIdle(byId.get(id) as ProfileNode)) busy += time;

function packageOf(url: string) {
  if (!url) return '(native)';
  if (url.startsWith('node:')) return 'node:internals';
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1] as string;
  const ours = /\/(server|domain|bench)\/src\//.exec(url) ?? /\/(server|domain|bench)\//.exec(url);
  return ours ? `ours: ${ours[1]}` : url;
}
const place = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const shortUrl = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(server|domain|bench)\//, '$1/');
  return `${functionName || '(anonymous)'} ${shortUrl}:${lineNumber + 1}`;
};

const sum = (entries: Map<string, number>) => [...entries.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
const percent = (time: number) => `${((100 * time) / busy).toFixed(1).padStart(5)} %`;

const selfByFunction = new Map<string, number>();
const selfByPackage = new Map<string, number>();
for (const [id, time] of selfTime) {
  const node = byId.get(id) as ProfileNode;
  if (isIdle(node)) continue;
  const key = place(node);
  selfByFunction.set(key, (selfByFunction.get(key) ?? 0) + time);
  const pkg = packageOf(node.callFrame.url);
  selfByPackage.set(pkg, (selfByPackage.get(pkg) ?? 0) + time);
}

const sampled = [...selfTime.values()].reduce((a, b) => a + b, 0);
console.log(`${file}: ${(busy / 1000).toFixed(0)} ms busy of ${(sampled / 1000).toFixed(0)} ms sampled`);
console.log('\nself time by package');
for (const [name, time] of sum(selfByPackage)) console.log(`${percent(time)}  ${name}`);
console.log('\nself time by function');
for (const [name, time] of sum(selfByFunction)) console.log(`${percent(time)}  ${name}`);

if (values.match) {
  const needle = values.match.toLowerCase();
  const inclusive = new Map<string, number>();
  for (const [id, time] of selfTime) {
    if (isIdle(byId.get(id) as ProfileNode)) continue;
    // Each sample counts once per matching function on its stack (recursion counted once).
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at) as ProfileNode;
      const key = place(node);
      if (!seen.has(key) && key.toLowerCase().includes(needle)) {
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + time);
      }
    }
  }
  console.log(`\ninclusive time of functions matching '${values.match}'`);
  for (const [name, time] of sum(inclusive)) console.log(`${percent(time)}  ${name}`);
}
