import { createHash } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { bump, trim } from '../lru.ts';

/** Distinct statements kept per connection: the app has a few hundred query shapes; keyset pages add none. */
export const STATEMENT_CACHE_SIZE = 500;

/** What the SQLite store runs: better-sqlite3's statement, its rows built as literals when it reads. */
export interface CachedStatement {
  readonly reader: boolean;
  /** Changes nothing in the database (a SELECT): it may run on the reading connection. */
  readonly readonly: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters?: readonly unknown[]): SQLite.RunResult;
}

export interface StatementCache {
  (sql: string): CachedStatement;
  /** Forgets every statement: another connection changed the schema (a renamed column keeps the width). */
  clear(): void;
}

const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;
export const isSchemaChange = (sql: string) => SCHEMA_CHANGE.test(sql);

/**
 * One better-sqlite3 connection's statements, each SQL text prepared once. Kysely asks for a new
 * statement on every query, and preparing was a fifth of the public tracking route's CPU
 * (docs/decisions/0013). A statement is bound afresh on every run, so reuse shares no values;
 * SQLite recompiles a prepared statement by itself when the schema changes under it, so a cached
 * one never answers from an old schema. Least recently used texts are dropped first.
 */
export function statementCache(database: SQLite.Database, size = STATEMENT_CACHE_SIZE): StatementCache {
  const statements = new Map<string, CachedStatement>();
  const cached = (sql: string): CachedStatement => {
    const found = statements.get(sql);
    if (found) {
      bump(statements, sql, found);
      return found;
    }
    const statement = database.prepare(sql);
    // A schema change: a cached `select *` would still build rows with the old column names.
    if (isSchemaChange(sql)) {
      statements.clear();
      return statement;
    }
    const prepared = statement.reader ? withRowShape(statement) : statement;
    bump(statements, sql, prepared);
    trim(statements, size);
    return prepared;
  };
  return Object.assign(cached, { clear: () => statements.clear() });
}

type Row = Record<string, unknown>;

/**
 * Rows come from SQLite as arrays and become objects through a function that builds each one as a
 * literal: better-sqlite3 sets an object's properties one by one by name, which cost twice as much
 * on a 22-column parcel list (docs/decisions/0013). Same keys, same values, the last of two equal
 * names winning, as before. The shape is worked out again if the columns change under it.
 */
function withRowShape(statement: SQLite.Statement): CachedStatement {
  statement.raw(true);
  let width = -1;
  let shape: (values: unknown[]) => Row = () => ({});
  const shaped = (values: unknown[]) => {
    if (values.length !== width) {
      const names = statement.columns().map((column) => column.name);
      width = names.length;
      shape = new Function(
        'values',
        `return {${names.map((name, index) => `${JSON.stringify(name)}: values[${index}]`).join(', ')}};`,
      ) as (values: unknown[]) => Row;
    }
    return shape(values);
  };
  return {
    reader: true,
    readonly: statement.readonly,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(shaped),
    run: (parameters = []) => statement.run(parameters),
  };
}

/** Named statements kept per PostgreSQL connection (each costs the server a parsed query and its plans). */
export const PG_STATEMENTS_PER_CONNECTION = 300;

/** What pg keeps about the statements a connection has parsed (not in its types). */
type PreparingConnection = pg.Connection & { parsedStatements: Record<string, string> };

/**
 * A pg pool whose clients run each parameterised SQL text as a named statement: PostgreSQL parses
 * and plans it once per connection instead of on every run (docs/decisions/0016). Statements
 * without parameters (BEGIN, COMMIT, DDL) go as before. At most `size` per connection, the least
 * recently used deallocated first. After a migration changes a table's columns, a statement
 * reading `*` from it is refused once ("cached plan must not change result type"): it is dropped
 * and, outside a transaction, run again at once.
 */
export function preparingPool(pool: pg.Pool, size = PG_STATEMENTS_PER_CONNECTION): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let preparing = clients.get(client);
      if (!preparing) {
        preparing = preparingClient(client, size);
        clients.set(client, preparing);
      }
      return preparing;
    },
    end: () => pool.end(),
  };
}

/** Statement names by SQL text, shared by every connection: hashing a text once is enough. */
const statementNames = new Map<string, string>();
const nameOf = (sql: string) => {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `csk_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    statementNames.set(sql, name);
    trim(statementNames, 10 * PG_STATEMENTS_PER_CONNECTION);
  }
  return name;
};

/**
 * The server no longer has the statement as it was parsed: a table it reads `*` from changed its
 * columns (0A000), or the session's statements were discarded (26000).
 */
const isStalePlan = (error: unknown) => {
  const code = (error as { code?: unknown })?.code;
  return code === '26000' || (code === '0A000' && /cached plan/.test(String((error as Error).message)));
};

/** Kysely's transaction statements: they carry no parameters and pass through as they are. */
const TRANSACTION_START = /^\s*(begin|start transaction)\b/i;
const TRANSACTION_END = /^\s*(commit|rollback|end|abort)\b(?!\s+to\b)/i;
/** Not ROLLBACK TO a savepoint: the transaction goes on. */
const ROLLBACK = /^\s*(rollback|abort)\b(?!\s+to\b)/i;

/**
 * Marks a write whose answer nobody reads (sendBehind, database.ts): on PostgreSQL it is not sent
 * alone but with the next statement of its transaction, at the latest its COMMIT.
 */
export const BEHIND = '/* behind */ ';

/** What a statement sent behind, or a BEGIN, answers at once: nothing (its own answer comes with the next). */
const NOT_YET: pg.QueryResult = { command: '', rowCount: null, oid: 0, fields: [], rows: [] };

function preparingClient(client: pg.PoolClient, size: number): PostgresPoolClient {
  // Statements given before the last one's answer are sent at once, in order (withWaiting): pg's
  // pipeline mode. Nothing else here gives a statement before the last one answered.
  (client as { pipeline: boolean }).pipeline = true;
  const connection = client.connection as PreparingConnection;
  const socket = connection.stream as { cork?: () => void; uncork?: () => void };
  let inTransaction = false;
  /** Names of the statements this connection holds, least recently used first. */
  const held = new Map<string, true>();
  /**
   * Dropped here, still to be deallocated on the server: only outside a transaction, where an
   * aborted one cannot refuse it. Until then such a text runs unnamed.
   */
  const dropped = new Set<string>();
  const drop = (name: string) => {
    held.delete(name);
    delete connection.parsedStatements[name];
    dropped.add(name);
  };
  const deallocateDropped = async () => {
    for (const name of dropped) {
      // A statement the server no longer has is as good as deallocated.
      await client.query(`deallocate "${name}"`).catch(() => {});
      dropped.delete(name);
    }
  };
  /** Sends one statement (named when it has values); the caller awaits its answer. */
  const submit = (sql: string, values: readonly unknown[]): { answer: Promise<pg.QueryResult>; name?: string } => {
    if (values.length === 0) return { answer: client.query(sql) };
    const name = nameOf(sql);
    if (dropped.has(name)) return { answer: client.query(sql, [...values]) };
    bump(held, name, true);
    while (held.size > size) drop(held.keys().next().value as string);
    return { answer: client.query({ name, text: sql, values: [...values] }), name };
  };
  /**
   * The BEGIN and the writes sent behind, not sent yet: they go with the next statement, in one
   * write to the socket and one round trip (the pool's clients pipeline), in order. The first of
   * them to fail fails the statement that took them along; the database has refused everything
   * after it in the transaction, and a COMMIT of it rolls it back.
   */
  let waiting: { sql: string; values: readonly unknown[] }[] = [];
  const withWaiting = async (sql: string, values: readonly unknown[]) => {
    const sent = [...waiting, { sql, values }];
    waiting = [];
    socket.cork?.();
    let submitted: ReturnType<typeof submit>[];
    try {
      submitted = sent.map((statement) => submit(statement.sql, statement.values));
    } finally {
      socket.uncork?.();
    }
    const answers = await Promise.allSettled(submitted.map((s) => s.answer));
    const lastFailed = answers.at(-1)?.status === 'rejected' ? answers.length - 1 : -1;
    // A ROLLBACK undoes whatever went before it: only its own answer counts (the reason for it is the caller's).
    const failed = ROLLBACK.test(sql) ? lastFailed : answers.findIndex((answer) => answer.status === 'rejected');
    if (failed === -1) return (answers.at(-1) as PromiseFulfilledResult<pg.QueryResult>).value;
    const error = (answers[failed] as PromiseRejectedResult).reason;
    const name = submitted[failed]?.name;
    if (name !== undefined && isStalePlan(error)) drop(name);
    throw error;
  };
  const run = async (sql: string, values: readonly unknown[]) => {
    if (!inTransaction && dropped.size > 0) await deallocateDropped();
    if (values.length === 0 && TRANSACTION_START.test(sql)) {
      inTransaction = true;
      waiting.push({ sql, values });
      return NOT_YET;
    }
    if (inTransaction && sql.startsWith(BEHIND)) {
      waiting.push({ sql, values });
      return NOT_YET;
    }
    if (values.length === 0 && TRANSACTION_END.test(sql)) inTransaction = false;
    if (waiting.length > 0) return withWaiting(sql, values);
    const { answer, name } = submit(sql, values);
    try {
      return await answer;
    } catch (error) {
      if (name === undefined || !isStalePlan(error)) throw error;
      drop(name);
      // Inside a transaction the refusal has aborted it: the caller's rollback follows.
      if (inTransaction) throw error;
      await deallocateDropped();
      return client.query({ name, text: sql, values: [...values] });
    }
  };
  function query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query(sqlOrCursor: string | PostgresCursor<unknown>, parameters: readonly unknown[] = []): unknown {
    // Kysely passes a cursor only to a dialect given one (streaming); ours is not.
    if (typeof sqlOrCursor !== 'string') throw new Error('streaming queries are not supported');
    return run(sqlOrCursor, parameters);
  }
  return { query, release: () => client.release() };
}
