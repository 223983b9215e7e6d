import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/**
 * A query built and compiled once, run with fresh values: Kysely otherwise builds, freezes and
 * compiles the same tree on every call, which was a tenth of a signed-in request's CPU (the
 * session lookup; docs/decisions/0013). `build` gets a marker (a string) for each value, whatever
 * the value's type; the compiled query's parameters are those markers, swapped for the values on
 * every run. So `build` must pass each one on as a value, untouched (no arithmetic on it).
 */
export function compiledOnce<Db, Args extends unknown[], Row>(
  db: Kysely<Db>,
  arity: Args['length'],
  build: (db: Kysely<Db>, ...values: Args) => Compilable<Row>,
): (...values: Args) => Promise<Row[]> {
  const markers = Array.from({ length: arity }, (_, index) => `\u0000value ${index}\u0000`);
  const compiled: CompiledQuery<Row> = build(db, ...(markers as unknown as Args)).compile();
  const slots = compiled.parameters.map((parameter) => markers.indexOf(parameter as string));
  if (markers.some((_, index) => !slots.includes(index))) throw new Error(`a value is not used: ${compiled.sql}`);
  return async (...values) => {
    const parameters = slots.map((slot, index) => (slot === -1 ? compiled.parameters[index] : values[slot]));
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}
