/**
 * A strict reader of the Prometheus text exposition format 0.0.4, for tests: whatever Prometheus
 * would refuse (or quietly misread) throws, with the line it happened on.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: MetricType;
  help: string | undefined;
  samples: Sample[];
}

export interface Exposition {
  families: Map<string, Family>;
  /** The value of the one sample of this name whose labels include these; undefined when none has them. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** Every sample of this name whose labels include these. */
  samples(name: string, labels?: Record<string, string>): Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set<string>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<MetricType, string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

class ParseError extends Error {
  constructor(line: number, reason: string, text: string) {
    super(`line ${line}: ${reason}: ${JSON.stringify(text.slice(0, 200))}`);
  }
}

/** Go's ParseFloat as Prometheus uses it: decimal or exponent notation, NaN and ±Inf in any case. */
function parseNumber(text: string): number | undefined {
  if (/^[+-]?(inf|infinity)$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(text)) return Number.NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  return Number(text);
}

function unescapeText(text: string, allowQuote: boolean): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = text[++i];
    if (next === '\\') out += '\\';
    else if (next === 'n') out += '\n';
    else if (next === '"' && allowQuote) out += '"';
    else return undefined;
  }
  return out;
}

/** `{a="1",b="x\"y"}` from position 0; returns the labels and where the text after them starts. */
function parseLabels(text: string): { labels: Record<string, string>; end: number } | string {
  const labels: Record<string, string> = {};
  let i = 1;
  for (;;) {
    if (text[i] === '}') return { labels, end: i + 1 };
    const nameEnd = text.indexOf('=', i);
    if (nameEnd < 0) return 'label without =';
    const name = text.slice(i, nameEnd);
    if (!LABEL_NAME.test(name)) return `bad label name ${JSON.stringify(name)}`;
    if (name.startsWith('__')) return `reserved label name ${name}`;
    if (Object.hasOwn(labels, name)) return `label ${name} twice`;
    if (text[nameEnd + 1] !== '"') return 'label value not quoted';
    let j = nameEnd + 2;
    while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    if (j >= text.length) return 'unterminated label value';
    const value = unescapeText(text.slice(nameEnd + 2, j), true);
    if (value === undefined) return 'bad escape in label value';
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i += 1;
    else if (text[i] !== '}') return 'expected , or } after a label';
  }
}

const matches = (sample: Sample, labels: Record<string, string>) =>
  Object.entries(labels).every(([name, value]) => sample.labels[name] === value);

const seriesKey = (labels: Record<string, string>, without?: string) =>
  JSON.stringify(
    Object.entries(labels)
      .filter(([name]) => name !== without)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );

function checkHistogram(family: Family): string | undefined {
  const groups = new Map<string, { buckets: { le: number; value: number }[]; sum?: number; count?: number }>();
  const group = (labels: Record<string, string>) => {
    const key = seriesKey(labels, 'le');
    let found = groups.get(key);
    if (!found) {
      found = { buckets: [] };
      groups.set(key, found);
    }
    return found;
  };
  for (const sample of family.samples) {
    if (sample.name === `${family.name}_bucket`) {
      const le = sample.labels.le === undefined ? undefined : parseNumber(sample.labels.le);
      if (le === undefined || Number.isNaN(le)) return `${sample.name} without a numeric le`;
      group(sample.labels).buckets.push({ le, value: sample.value });
    } else if (sample.labels.le !== undefined) {
      return `${sample.name} has an le label`;
    } else if (sample.name === `${family.name}_sum`) {
      group(sample.labels).sum = sample.value;
    } else {
      group(sample.labels).count = sample.value;
    }
  }
  for (const [key, { buckets, sum, count }] of groups) {
    if (sum === undefined || count === undefined) return `histogram ${family.name}${key} lacks _sum or _count`;
    const last = buckets.at(-1);
    if (!last || last.le !== Infinity) return `histogram ${family.name}${key} lacks le="+Inf" as its last bucket`;
    if (last.value !== count) return `histogram ${family.name}${key}: le="+Inf" ${last.value} is not _count ${count}`;
    for (let i = 1; i < buckets.length; i++) {
      const [before, bucket] = [buckets[i - 1], buckets[i]];
      if (!before || !bucket || bucket.le <= before.le) return `histogram ${family.name}${key}: le not increasing`;
      if (bucket.value < before.value) return `histogram ${family.name}${key}: buckets not cumulative`;
    }
  }
  return undefined;
}

/** Reads a whole scrape; throws on the first thing that is not valid exposition text. */
export function parsePrometheus(text: string): Exposition {
  if (text.length > 0 && !text.endsWith('\n')) throw new Error('the exposition does not end with a newline');
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  const helps = new Map<string, string>();
  let current: Family | undefined;
  const lines = text.split('\n');
  lines.pop();

  const familyOf = (sampleName: string): Family | undefined => {
    for (const family of families.values()) {
      if (SUFFIXES[family.type].some((suffix) => `${family.name}${suffix}` === sampleName)) return family;
    }
    return undefined;
  };

  lines.forEach((line, index) => {
    const at = index + 1;
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const match = /^#[ \t]+(HELP|TYPE)[ \t]+(\S+)(?:[ \t]+(.*))?$/.exec(line);
      if (!match) return; // any other comment
      const [, keyword, name = '', rest = ''] = match;
      if (!METRIC_NAME.test(name)) throw new ParseError(at, 'bad metric name', line);
      if (keyword === 'HELP') {
        if (helps.has(name)) throw new ParseError(at, 'second HELP for a metric', line);
        const help = unescapeText(rest, false);
        if (help === undefined) throw new ParseError(at, 'bad escape in HELP', line);
        helps.set(name, help);
        const family = families.get(name);
        if (family) family.help = help;
        return;
      }
      if (!TYPES.has(rest)) throw new ParseError(at, 'unknown TYPE', line);
      if (families.has(name)) throw new ParseError(at, 'second TYPE for a metric', line);
      if (familyOf(name)) throw new ParseError(at, 'TYPE for a name another metric uses', line);
      current = { name, type: rest as MetricType, help: helps.get(name), samples: [] };
      families.set(name, current);
      return;
    }
    const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
    if (!nameMatch) throw new ParseError(at, 'bad metric name', line);
    const name = nameMatch[0];
    let rest = line.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) {
      const parsed = parseLabels(rest);
      if (typeof parsed === 'string') throw new ParseError(at, parsed, line);
      labels = parsed.labels;
      rest = rest.slice(parsed.end);
    }
    const fields = /^[ \t]+(\S+)(?:[ \t]+(-?\d+))?[ \t]*$/.exec(rest);
    if (!fields) throw new ParseError(at, 'expected a value (and an optional timestamp)', line);
    const value = parseNumber(fields[1] ?? '');
    if (value === undefined) throw new ParseError(at, 'value is not a number', line);
    const family = familyOf(name);
    if (!family) throw new ParseError(at, 'sample without a TYPE', line);
    if (family !== current) throw new ParseError(at, 'samples of a metric not together', line);
    if (family.type === 'counter' && !(value >= 0)) throw new ParseError(at, 'counter below zero', line);
    const key = `${name}${seriesKey(labels)}`;
    if (seen.has(key)) throw new ParseError(at, 'the same series twice', line);
    seen.add(key);
    family.samples.push({ name, labels, value });
  });

  for (const name of helps.keys()) {
    if (!families.has(name)) throw new Error(`HELP for ${name}, which has no TYPE`);
  }
  for (const family of families.values()) {
    const problem = family.type === 'histogram' ? checkHistogram(family) : undefined;
    if (problem) throw new Error(problem);
  }

  const samples = (name: string, labels: Record<string, string> = {}) =>
    [...families.values()].flatMap((family) => family.samples).filter((s) => s.name === name && matches(s, labels));
  return {
    families,
    samples,
    value(name, labels = {}) {
      const found = samples(name, labels);
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
  };
}
