import type { Catalogue } from './messages.ts';

type Text = (...args: (string | number)[]) => string;

/** A parameterised text as a pattern: its literal parts, and which parameter each gap holds. */
interface Pattern {
  regex: RegExp;
  /** For each gap in the text, left to right, the parameter's index. */
  order: number[];
  arity: number;
  render: Text;
  /** How much of the text is its own (not parameters): more specific patterns are tried first. */
  literal: number;
}

const MARK = '\u0000';
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A captured parameter that was a number (a count, a limit) is given back as one: plurals depend on it. */
const revive = (text: string) => (/^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text);

/**
 * Says a text written from one catalogue in another (issue 30): the server writes its refusals and
 * its schemas' messages in Hungarian — a schema's were fixed when it was made — and a request in
 * English gets them in English at the one place errors are answered. A text of a key is matched
 * exactly; a parameterised one by its literal parts, its parameters carried over (numbers as
 * numbers). A text no key wrote (zod's own, say) is given back as it is.
 */
export function translator(from: Catalogue, to: Catalogue): (text: string) => string {
  const exact = new Map<string, string>();
  const patterns: Pattern[] = [];
  for (const key of Object.keys(from) as (keyof Catalogue)[]) {
    const source = from[key] as string | Text;
    const target = to[key] as string | Text;
    if (typeof source === 'string') {
      if (!exact.has(source) && typeof target === 'string') exact.set(source, target);
      continue;
    }
    if (typeof target !== 'function') continue;
    const marks = Array.from({ length: source.length }, (_, i) => `${MARK}${i}${MARK}`);
    let rendered: string;
    try {
      rendered = source(...marks);
    } catch {
      continue;
    }
    const order: number[] = [];
    const parts = rendered.split(new RegExp(`${MARK}(\\d+)${MARK}`));
    let regex = '';
    for (const [i, part] of parts.entries()) {
      if (i % 2 === 1) {
        order.push(Number(part));
        regex += '(.+?)';
      } else regex += escapeRegex(part);
    }
    const literal = parts.filter((_, i) => i % 2 === 0).join('').length;
    // A parameter the text does not show (it was worked on: a date formatted) cannot be carried over;
    // a text that is mostly parameters would match anything.
    if (new Set(order).size !== marks.length || literal < 4) continue;
    patterns.push({ regex: new RegExp(`^${regex}$`, 's'), order, arity: marks.length, render: target, literal });
  }
  patterns.sort((a, b) => b.literal - a.literal);
  // A parameter that is itself a text of the catalogue (a reason's label in a sentence) is said too.
  const argument = (text: string) => exact.get(text) ?? revive(text);
  return (text) => {
    const known = exact.get(text);
    if (known !== undefined) return known;
    for (const pattern of patterns) {
      const match = pattern.regex.exec(text);
      if (!match) continue;
      const args: (string | number)[] = new Array(pattern.arity);
      for (const [gap, index] of pattern.order.entries()) args[index] = argument(match[gap + 1] ?? '');
      return pattern.render(...args);
    }
    return text;
  };
}
