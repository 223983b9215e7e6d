import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/**
 * A query built and compiled once, run with fresh values: Kysely otherwise builds, freezes and
 * compiles the same tree on every call, which was a tenth of a signed-in request's CPU (the
 * session lookup; docs/decisions/0013) and a fifth of a pickup's on PostgreSQL (ADR 0033). `build`
 * gets a marker (a string) for each value, whatever the value's type; the compiled query's
 * parameters are those markers, swapped for the values on every run. So `build` must pass each one
 * on as a value, untouched (no arithmetic on it, no test of it).
 */
export function compiledOnce<Db, Args extends unknown[], Row>(
  db: Kysely<Db>,
  arity: Args['length'],
  build: (db: Kysely<Db>, ...values: Args) => Compilable<Row>,
): (...values: Args) => Promise<Row[]> {
  const withValues = compileWithMarkers(db, arity, build);
  return async (...values) => (await db.executeQuery<Row>(withValues(values))).rows;
}

/**
 * compiledOnce for a statement run on whatever connection or transaction the caller has (the write
 * path's commands run on their transaction): compiled the first time on each kind of store, whose
 * SQL differs, and run on the one given; `compile` gives it with its values, to be run otherwise
 * (sendBehind).
 */
export function compiledPerStore<Db, Args extends unknown[], Row>(
  arity: Args['length'],
  build: (db: Kysely<Db>, ...values: Args) => Compilable<Row>,
): ((db: Kysely<Db>, ...values: Args) => Promise<Row[]>) & {
  compile: (db: Kysely<Db>, ...values: Args) => CompiledQuery<Row>;
} {
  const byAdapter = new WeakMap<object, (values: readonly unknown[]) => CompiledQuery<Row>>();
  const compile = (db: Kysely<Db>, ...values: Args) => {
    const adapter = db.getExecutor().adapter.constructor;
    let withValues = byAdapter.get(adapter);
    if (!withValues) {
      withValues = compileWithMarkers(db, arity, build);
      byAdapter.set(adapter, withValues);
    }
    return withValues(values);
  };
  const run = async (db: Kysely<Db>, ...values: Args) => (await db.executeQuery<Row>(compile(db, ...values))).rows;
  return Object.assign(run, { compile });
}

/** The query compiled with markers for its values, and how to put the values in their places. */
function compileWithMarkers<Db, Args extends unknown[], Row>(
  db: Kysely<Db>,
  arity: Args['length'],
  build: (db: Kysely<Db>, ...values: Args) => Compilable<Row>,
): (values: readonly unknown[]) => CompiledQuery<Row> {
  const markers = Array.from({ length: arity }, (_, index) => `\u0000value ${index}\u0000`);
  const compiled: CompiledQuery<Row> = build(db, ...(markers as unknown as Args)).compile();
  const slots = compiled.parameters.map((parameter) => markers.indexOf(parameter as string));
  if (markers.some((_, index) => !slots.includes(index))) throw new Error(`a value is not used: ${compiled.sql}`);
  return (values) => ({
    ...compiled,
    parameters: slots.map((slot, index) => (slot === -1 ? compiled.parameters[index] : values[slot])),
  });
}
