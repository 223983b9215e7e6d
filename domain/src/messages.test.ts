import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_STATUS } from './errors.ts';
import { huAreas, messages } from './messages.ts';

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

describe('error codes', () => {
  it('are snake_case and each has a 4xx or 5xx status', () => {
    for (const code of ERROR_CODES) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
    }
  });
});
