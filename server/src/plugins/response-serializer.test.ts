import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializerCompiler } from './response-serializer.ts';

const parcel = z.object({
  id: z.string(),
  status: z.enum(['waiting', 'in_transit', 'delivered']),
  runner: z.string().nullable(),
  weightGrams: z.number().int(),
  note: z.string().optional(),
  stops: z.array(z.object({ lat: z.number(), lng: z.number() })),
});
const route = (schema: unknown, httpStatus = '200') => ({ schema, method: 'GET', url: '/api/x', httpStatus });
const compile = (check: boolean, schema: unknown = parcel, httpStatus?: string) =>
  responseSerializerCompiler({ check })(route(schema, httpStatus) as never);

const row = {
  id: 'ABCDEFGHJK',
  status: 'in_transit',
  runner: null,
  weightGrams: 750,
  stops: [{ lat: 47.5, lng: 19.05, accuracy: 12 }],
  // What a database row carries beside what the schema describes.
  password_hash: '$argon2id$secret',
  sender: { email: 'titok@example.hu' },
};

describe('response serializer', () => {
  it('writes only what the schema names, nested objects included', () => {
    const written = JSON.parse(compile(false)(row));
    expect(written).toEqual({
      id: 'ABCDEFGHJK',
      status: 'in_transit',
      runner: null,
      weightGrams: 750,
      stops: [{ lat: 47.5, lng: 19.05 }],
    });
  });

  it('writes what zod writes (the same JSON; optional properties may come last)', () => {
    const fast = compile(false);
    const zod = compile(false, parcel, '400');
    for (const value of [row, { ...row, runner: 'futar1', note: 'Csengess kétszer' }]) {
      expect(JSON.parse(fast(value))).toStrictEqual(JSON.parse(zod(value)));
    }
  });

  it('in tests, fails a response its schema does not describe instead of coercing it', () => {
    expect(() => compile(true)({ ...row, weightGrams: '750' })).toThrow();
    expect(() => compile(true)({ ...row, status: 'lost' })).toThrow();
    expect(compile(true)(row)).toBe(compile(false)(row));
  });

  it('keeps zod for refusals, which checks their code', () => {
    const refusal = z.object({ error: z.object({ code: z.enum(['not_found']), message: z.string() }) });
    const serialize = compile(false, refusal, '404');
    expect(serialize({ error: { code: 'not_found', message: 'Nincs ilyen.' } })).toBe(
      '{"error":{"code":"not_found","message":"Nincs ilyen."}}',
    );
    expect(() => serialize({ error: { code: 'forbidden', message: 'Nem.' } })).toThrow();
  });

  it('keeps zod for a schema JSON Schema cannot say (a transform runs on the way out)', () => {
    const shouted = z.object({ name: z.string().transform((name) => name.toUpperCase()) });
    expect(compile(false, shouted)({ name: 'elek' })).toBe('{"name":"ELEK"}');
  });
});

describe('nullable values and formats', () => {
  const schema = z.object({
    at: z.string().datetime().nullable(),
    position: z.object({ lat: z.number(), lng: z.number() }).nullable(),
    status: z.enum(['waiting', 'delivered']).nullable(),
    stops: z.array(z.number()).nullable(),
  });
  it('are written as zod writes them', () => {
    const fast = compile(true, schema);
    const full = {
      at: '2026-11-23T10:00:00.000Z',
      position: { lat: 47.5, lng: 19.05, x: 1 },
      status: 'waiting',
      stops: [1],
    };
    const empty = { at: null, position: null, status: null, stops: null };
    expect(JSON.parse(fast(full))).toEqual({ ...full, position: { lat: 47.5, lng: 19.05 } });
    expect(JSON.parse(fast(empty))).toEqual(empty);
  });
});
