import { z } from 'zod';
import { MAX_WEIGHT_GRAMS } from './constants.ts';
import { messages } from './messages.ts';

/**
 * A parcel's weight as a person types it (issue 27): '750', '750 g', '2 kg', '1,5 kg', '1.5kg',
 * '50 dkg'. Read into whole grams, or refused with the reason — never cut to the number in front
 * ('2 kg' was once stored as 2 g). A decimal comma and a decimal point mean the same; a space may
 * group thousands ('1 500 g'). A decimal without a unit is refused (grams or kilograms?), and so is
 * a weight finer than a gram after conversion ('1,2345 kg'): rounding it would store a number the
 * person did not type.
 */

/** Grams per unit, by the unit's spellings (lower case). */
const UNITS: Readonly<Record<string, number>> = {
  g: 1,
  gr: 1,
  gramm: 1,
  gram: 1,
  dkg: 10,
  dag: 10,
  deka: 10,
  kg: 1000,
  kiló: 1000,
  kilo: 1000,
  kilogramm: 1000,
};

/** Longer than any weight anyone types: a longer text is not read. */
const MAX_TEXT = 40;

const WEIGHT_TEXT = /^(-)?(\d{1,3}(?:[ \u00a0]\d{3})+|\d*)(?:[.,](\d+))?\s*(\p{L}*)\.?$/u;

export type WeightReading =
  | { ok: true; grams: number }
  | { ok: false; problem: 'empty' | 'unreadable' | 'not_positive' | 'needs_unit' | 'too_heavy' }
  | { ok: false; problem: 'not_whole'; nearest: number };

const inRange = (grams: number): WeightReading => {
  if (grams <= 0) return { ok: false, problem: 'not_positive' };
  if (grams > MAX_WEIGHT_GRAMS) return { ok: false, problem: 'too_heavy' };
  return { ok: true, grams };
};

/** A number given as grams (a JSON number): whole, positive, at most MAX_WEIGHT_GRAMS. */
export function wholeGrams(value: number): WeightReading {
  if (!Number.isInteger(value) || value <= 0) return { ok: false, problem: 'not_positive' };
  return inRange(value);
}

/** A typed weight in whole grams, or why not. */
export function readWeight(text: string): WeightReading {
  const typed = text.trim().toLowerCase();
  if (typed === '') return { ok: false, problem: 'empty' };
  if (typed.length > MAX_TEXT) return { ok: false, problem: 'unreadable' };
  const match = WEIGHT_TEXT.exec(typed);
  if (!match) return { ok: false, problem: 'unreadable' };
  const [, minus, whole = '', fraction = '', unit = ''] = match;
  if (whole === '' && fraction === '') return { ok: false, problem: 'unreadable' };
  const factor = unit === '' ? 1 : UNITS[unit];
  if (factor === undefined) return { ok: false, problem: 'unreadable' };
  // Exact in integers: the digits as one number, over a power of ten for the fraction.
  const digits = Number(`${whole.replace(/[ \u00a0]/g, '')}${fraction}` || '0');
  const scale = 10 ** fraction.length;
  const grams = (digits * factor) / scale;
  if (minus || grams === 0) return { ok: false, problem: 'not_positive' };
  if (unit === '' && fraction !== '') return { ok: false, problem: 'needs_unit' };
  if (grams > MAX_WEIGHT_GRAMS) return { ok: false, problem: 'too_heavy' };
  if ((digits * factor) % scale !== 0)
    return { ok: false, problem: 'not_whole', nearest: Math.max(1, Math.round(grams)) };
  return inRange(grams);
}

/** What a refused weight is told with. */
export function weightRefusal(reading: Exclude<WeightReading, { ok: true }>): string {
  switch (reading.problem) {
    case 'empty':
      return messages.required;
    case 'unreadable':
      return messages.weightUnreadable;
    case 'not_positive':
      return messages.weightInvalid;
    case 'needs_unit':
      return messages.weightNeedsUnit;
    case 'too_heavy':
      return messages.weightTooHeavy(MAX_WEIGHT_GRAMS);
    case 'not_whole':
      return messages.weightNotWholeGrams(reading.nearest);
  }
}

/**
 * A parcel's weight in a request: whole grams as a number, or text as a person types it (the
 * forms send the field as typed; a client may too). Either way the body carries whole grams on.
 */
export const weightGramsField = z
  .union([z.number(), z.string()], { error: messages.weightInvalid })
  .describe('Whole grams (a number), or text with a unit: "750", "750 g", "1,5 kg", "2kg", "50 dkg"')
  .transform((value, context) => {
    const reading = typeof value === 'number' ? wholeGrams(value) : readWeight(value);
    if (reading.ok) return reading.grams;
    context.addIssue({ code: 'custom', message: weightRefusal(reading) });
    return z.NEVER;
  });
