import { describe, expect, it } from 'vitest';
import { messages } from './messages.ts';
import { en } from './messages-en.ts';
import { translator } from './translate.ts';

describe('saying a Hungarian text in English', () => {
  const toEnglish = translator(messages, en);

  it('says a text of a key as that key’s English text', () => {
    expect(toEnglish(messages.wrongCredentials)).toBe(en.wrongCredentials);
    expect(toEnglish(messages.incidentNotAtDropPoint)).toBe(en.incidentNotAtDropPoint);
  });

  it('carries a parameterised text’s parameters over, numbers as numbers', () => {
    expect(toEnglish(messages.handoverPinWrong(4))).toBe(en.handoverPinWrong(4));
    expect(toEnglish(messages.handoverPinWrong(1))).toBe(en.handoverPinWrong(1));
    expect(toEnglish(messages.incidentPhotosFull(5))).toBe(en.incidentPhotosFull(5));
    expect(toEnglish(messages.handoverPinFormat(6))).toBe(en.handoverPinFormat(6));
  });

  it('translates every text of the catalogue that it can tell apart, string or parameterised', () => {
    const wrong: string[] = [];
    for (const key of Object.keys(messages) as (keyof typeof messages)[]) {
      const hu = messages[key] as string | ((...args: string[]) => string);
      const english = en[key] as string | ((...args: string[]) => string);
      if (typeof hu === 'string') {
        // Two keys may share one Hungarian text: either English text is right.
        const same = Object.keys(messages).filter((other) => messages[other as keyof typeof messages] === hu);
        const answers = same.map((other) => en[other as keyof typeof en]);
        if (!answers.includes(toEnglish(hu) as never)) wrong.push(key);
        continue;
      }
      const args = Array.from({ length: hu.length }, (_, i) => `p${i}x`);
      const said = toEnglish(hu(...args));
      // Told apart from Hungarian, it must be this key's English (or another key's with the same Hungarian).
      if (said !== hu(...args) && said !== (english as (...a: string[]) => string)(...args)) {
        const sameShape = Object.values(en).some(
          (text) =>
            typeof text === 'function' &&
            text.length === hu.length &&
            (text as (...a: string[]) => string)(...args) === said,
        );
        if (!sameShape) wrong.push(key);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('says a parameter that is itself a text of the catalogue too', () => {
    expect(toEnglish(messages.mailSenderAttempted(messages.attemptReasonNobodyHome))).toBe(
      en.mailSenderAttempted(en.attemptReasonNobodyHome),
    );
  });

  it('gives back a text no key wrote', () => {
    expect(toEnglish('Valami egészen más.')).toBe('Valami egészen más.');
    expect(toEnglish('')).toBe('');
  });
});
