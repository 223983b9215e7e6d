import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_STATUS } from './errors.ts';
import { huAreas, messages } from './messages.ts';
import { en, enAreas } from './messages-en.ts';

describe('the Hungarian catalogue', () => {
  it('defines each key in exactly one area file', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [area, texts] of Object.entries(huAreas)) {
      for (const key of Object.keys(texts)) {
        const first = seen.get(key);
        if (first) twice.push(`${key} (${first}, ${area})`);
        seen.set(key, area);
      }
    }
    expect(twice).toEqual([]);
  });

  it('has a non-empty text for every key, and every parameterised text uses its parameters', () => {
    for (const [key, text] of Object.entries(messages)) {
      if (typeof text === 'string') {
        expect(text.trim(), key).not.toBe('');
        continue;
      }
      const args = Array.from({ length: text.length }, (_, i) => `«${i}»`);
      const rendered = (text as (...parts: string[]) => string)(...args);
      for (const arg of args) expect(rendered, key).toContain(arg);
    }
  });
});

/** English texts that quote Hungarian on purpose: the operator's sample company, address and pages. */
const QUOTES_HUNGARIAN = ['demoPrivacyPage', 'demoImprintPage'];

/** Each function of a catalogue rendered with a marker per parameter: every marker must show. */
function unusedParameters(catalogue: Record<string, unknown>) {
  const unused: string[] = [];
  for (const [key, text] of Object.entries(catalogue)) {
    if (typeof text !== 'function') continue;
    const args = Array.from({ length: text.length }, (_, i) => `«${i}»`);
    const rendered = (text as (...parts: string[]) => string)(...args);
    for (const arg of args) if (!rendered.includes(arg)) unused.push(`${key} ${arg}`);
  }
  return unused;
}

describe('the English catalogue (issue 30)', () => {
  it('has, area by area, exactly the Hungarian keys in the same order', () => {
    expect(Object.keys(enAreas)).toEqual(Object.keys(huAreas));
    for (const [area, texts] of Object.entries(huAreas)) {
      expect(Object.keys(enAreas[area as keyof typeof enAreas]), area).toEqual(Object.keys(texts));
    }
    expect(Object.keys(en)).toEqual(Object.keys(messages));
  });

  it('gives each key the same kind of text: a string for a string, a function of as many parameters for a function', () => {
    const differing: string[] = [];
    for (const [key, text] of Object.entries(messages)) {
      const english = en[key as keyof typeof en] as unknown;
      const same =
        typeof english === typeof text &&
        (typeof text !== 'function' || (english as (...args: never[]) => string).length === text.length);
      if (!same || (typeof english === 'string' && english.trim() === '')) differing.push(key);
    }
    expect(differing).toEqual([]);
  });

  it('uses every parameter of every parameterised text, in both languages', () => {
    expect(unusedParameters(messages)).toEqual([]);
    expect(unusedParameters(en)).toEqual([]);
  });

  it('is English: no Hungarian-only letters but in the product’s name and the Hungarian names it quotes', () => {
    const quotesHungarian = new Set(QUOTES_HUNGARIAN);
    const leftInHungarian = Object.entries(en)
      .filter(([key]) => !quotesHungarian.has(key))
      .filter(([, text]) => {
        const sample = typeof text === 'string' ? text : (text as (...parts: string[]) => string)('x', 'x', 'x', 'x');
        return /[őűŐŰ]/.test(sample.replaceAll('Csomagküldő', ''));
      })
      .map(([key]) => key);
    expect(leftInHungarian).toEqual([]);
  });
});

describe('error codes', () => {
  it('are snake_case and each has a 4xx or 5xx status', () => {
    for (const code of ERROR_CODES) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
    }
  });
});
