import { describe, expect, it } from 'vitest';
import { preferredLanguage } from './language.ts';

describe('the language an Accept-Language header prefers', () => {
  it.each([
    [undefined, 'hu'],
    ['', 'hu'],
    ['en', 'en'],
    ['en-GB,en;q=0.9', 'en'],
    ['hu-HU,hu;q=0.9,en-US;q=0.8,en;q=0.7', 'hu'],
    ['de-DE,de;q=0.9,en;q=0.8,hu;q=0.7', 'en'],
    ['hu;q=0.5,en;q=0.9', 'en'],
    ['fr,de', 'hu'],
    ['*', 'hu'],
    ['en;q=0,hu;q=0.1', 'hu'],
    ['EN-us', 'en'],
    // A weight that is no number is ignored (the tag counts as preferred).
    ['en;q=abc', 'en'],
    [';;,,', 'hu'],
  ] as const)('%j → %s', (header, language) => {
    expect(preferredLanguage(header)).toBe(language);
  });
});
