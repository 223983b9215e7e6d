import { describe, expect, it } from 'vitest';
import { pageLanguageOf, preferredLanguage } from './language.ts';

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

describe("a page's language as the server picks it", () => {
  it('follows the switch (its cookie) over the browser', () => {
    expect(pageLanguageOf('hu', 'en-GB,en;q=0.9')).toBe('hu');
    expect(pageLanguageOf('en', 'hu-HU')).toBe('en');
  });

  it('follows the browser without a choice, or with a cookie that is not one of ours', () => {
    expect(pageLanguageOf(undefined, 'en-GB,en;q=0.9')).toBe('en');
    expect(pageLanguageOf('de', 'en')).toBe('en');
    expect(pageLanguageOf('', undefined)).toBe('hu');
  });
});
