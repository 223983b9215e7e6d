import { describe, expect, it } from 'vitest';
import { messages } from './messages.ts';
import { parcelCreateBodySchema } from './parcel.ts';
import { readWeight, weightGramsField } from './weight.ts';

describe('a typed weight', () => {
  it.each([
    ['750', 750],
    ['750 g', 750],
    ['750g', 750],
    ['750 gramm', 750],
    ['2 kg', 2000],
    ['2kg', 2000],
    ['2 KG', 2000],
    ['1,5 kg', 1500],
    ['1.5 kg', 1500],
    ['0,75 kg', 750],
    [',5 kg', 500],
    ['1,250 kg', 1250],
    ['1,2340 kg', 1234],
    ['2 kiló', 2000],
    ['50 dkg', 500],
    ['12,5 dkg', 125],
    ['1 500 g', 1500],
    ['  3 kg.  ', 3000],
    ['50 kg', 50_000],
  ])('reads %j as %i g', (text, grams) => {
    expect(readWeight(text)).toEqual({ ok: true, grams });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['kg', 'unreadable'],
    ['2 font', 'unreadable'],
    ['két kiló', 'unreadable'],
    ['2 kg 30 g', 'unreadable'],
    ['1,5,0 kg', 'unreadable'],
    ['1e3', 'unreadable'],
    ['1,5', 'needs_unit'],
    ['0,75', 'needs_unit'],
    ['0 g', 'not_positive'],
    ['-2 kg', 'not_positive'],
    ['0,0 kg', 'not_positive'],
    ['50,001 kg', 'too_heavy'],
    ['50001', 'too_heavy'],
    ['99999999999999999999 kg', 'too_heavy'],
  ])('refuses %j (%s)', (text, problem) => {
    expect(readWeight(text)).toEqual({ ok: false, problem });
  });

  it.each([
    ['1,2345 kg', 1235],
    ['1,5 g', 2],
    ['0,4 g', 1],
  ])('refuses %j finer than a gram, naming the nearest whole gram (%i g) instead of rounding', (text, nearest) => {
    expect(readWeight(text)).toEqual({ ok: false, problem: 'not_whole', nearest });
  });
});

describe('the weight field of a request', () => {
  const message = (value: unknown) => weightGramsField.safeParse(value).error?.issues[0]?.message;

  it('carries whole grams on, from a number or from text', () => {
    expect(weightGramsField.parse(850)).toBe(850);
    expect(weightGramsField.parse('1,5 kg')).toBe(1500);
    expect(parcelCreateBodySchema.shape.weightGrams.parse('2 kg')).toBe(2000);
  });

  it.each([
    [1.5, messages.weightInvalid],
    [0, messages.weightInvalid],
    [null, messages.weightInvalid],
    [true, messages.weightInvalid],
    [50_001, messages.weightTooHeavy(50_000)],
    ['', messages.required],
    ['2 font', messages.weightUnreadable],
    ['1,5', messages.weightNeedsUnit],
    ['1,2345 kg', messages.weightNotWholeGrams(1235)],
    ['60 kg', messages.weightTooHeavy(50_000)],
  ])('refuses %j in Hungarian', (value, text) => {
    expect(message(value)).toBe(text);
  });
});
