import type SQLite from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import {
  type CachedStatement,
  isSchemaChange,
  STATEMENT_CACHE_SIZE,
  type StatementCache,
  statementCache,
} from './statement-cache.ts';

/**
 * The embedded store behind Kysely, committing many transactions with one fsync
 * (docs/decisions/0016). With `synchronous=FULL` every COMMIT waits for the disk, and on this
 * one-writer store that wait, not the work, bounded state changes to a few hundred a second.
 *
 * - Writes run on one connection, one transaction at a time as before (a FIFO lock), each inside a
 *   SAVEPOINT of a shared outer transaction (a batch). A transaction that fails rolls back to its
 *   savepoint only. The batch commits once the event loop has run everything that was ready (a
 *   setImmediate), so the transactions of requests that arrived together share one COMMIT.
 * - Nothing is answered before its batch has committed: a transaction's commit, and a write outside
 *   one, resolve only when the COMMIT (and its fsync) has returned; a refusal waits too, as it may
 *   have been read from a batch that has yet to commit. An acknowledged change survives a crash.
 *   If the COMMIT fails, every transaction of the batch fails with it.
 * - Reads outside a transaction run on a second, read-only connection: they see only what has
 *   committed and never wait for the writer.
 * - PRAGMA, VACUUM, ATTACH and transaction statements run on the writer outside any batch (the
 *   batch is committed first): SQLite refuses or ignores them inside a transaction.
 */
export class GroupCommitSqliteDialect implements Dialect {
  constructor(private readonly options: GroupCommitOptions) {}
  createDriver(): Driver {
    return new GroupCommitDriver(this.options);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own dialects take Kysely<any> here.
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}

/** The store's two connections to one file, as openStore opens them. */
export interface GroupCommitOptions {
  /** The connection that writes (WAL mode, its pragmas set). */
  writer: SQLite.Database;
  /** A second connection to the same file for reads outside transactions. */
  reader: SQLite.Database;
  statementCacheSize?: number;
  /** How long a transaction waits for another connection's write lock before it fails (SQLITE_BUSY). */
  busyTimeoutMs?: number;
  /** Told after each COMMIT how many transactions it ended (tests; batch sizes). */
  onCommit?: (transactions: number) => void;
}

/** Statements SQLite refuses or ignores inside a transaction, or that control transactions themselves. */
const OUTSIDE_TRANSACTIONS = /^\s*(pragma|vacuum|attach|detach|begin|commit|end|rollback|savepoint|release)\b/i;
/**
 * What may be a read. Only these are prepared on the reader: it learns of schema changes lazily,
 * so DDL prepared there could be refused against the schema as it was (a trigger "already exists").
 */
const READS = /^\s*(select|with)\b/i;
/** The savepoint each transaction of a batch runs in (one at a time, so one name). */
const UNIT = 'csk_unit';

/** Taken at load: a test's fake timers must not hold a commit back. */
const afterThisTurn = setImmediate;

/** First come, first served: transactions keep the order in which they asked. */
class WriterLock {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}

/** An outer transaction the writes of one turn of the event loop share. */
class Batch {
  /** Settles when its COMMIT has returned (resolved) or failed (rejected). */
  readonly done: Promise<void>;
  /** Transactions that ran in it (kept or undone). */
  transactions = 0;
  /** It ran DDL: once committed, the reader's statements may build rows with old column names. */
  changedSchema = false;
  settle!: (error?: unknown) => void;

  constructor() {
    this.done = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // Always awaited by its transactions; this only keeps an unawaited rejection from being fatal.
    this.done.catch(() => {});
  }
}

type Run = (statement: CachedStatement, parameters: readonly unknown[]) => QueryResult<unknown>;

/** What Kysely's own SQLite driver answers for a statement. */
const run: Run = (statement, parameters) => {
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
};

class GroupCommitDriver implements Driver {
  private readonly writer: SQLite.Database;
  private readonly reader: SQLite.Database;
  private readonly onWriter: StatementCache;
  private readonly onReader: StatementCache;
  private readonly lock = new WriterLock();
  private batch: Batch | undefined;
  private readonly onCommit: (transactions: number) => void;
  private readonly busyTimeoutMs: number;

  constructor({
    writer,
    reader,
    statementCacheSize = STATEMENT_CACHE_SIZE,
    busyTimeoutMs = 5000,
    onCommit,
  }: GroupCommitOptions) {
    this.writer = writer;
    this.reader = reader;
    // SQLite would wait for a busy lock by sleeping the whole thread: the driver waits itself (unlessBusy).
    writer.pragma('busy_timeout = 0');
    this.busyTimeoutMs = busyTimeoutMs;
    this.onCommit = onCommit ?? (() => {});
    this.onWriter = statementCache(writer, statementCacheSize);
    this.onReader = statementCache(reader, statementCacheSize);
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new GroupCommitConnection(this);
  }

  async beginTransaction(connection: GroupCommitConnection) {
    await this.lock.acquire();
    try {
      connection.batch = await this.join();
      this.onWriter(`savepoint ${UNIT}`).run();
      connection.batch.transactions += 1;
    } catch (error) {
      connection.batch = undefined;
      this.lock.release();
      throw error;
    }
  }

  async commitTransaction(connection: GroupCommitConnection) {
    const { batch, error } = this.leave(connection, true);
    if (error !== undefined) {
      await batch.done.catch(() => {});
      throw error;
    }
    await batch.done;
  }

  async rollbackTransaction(connection: GroupCommitConnection) {
    if (!connection.batch) return;
    const { batch, error } = this.leave(connection, false);
    // A refusal may have been read from writes of this batch: it is answered once they are committed.
    await batch.done;
    if (error !== undefined) throw error;
  }

  async releaseConnection(connection: GroupCommitConnection) {
    // Kysely rolls back before releasing; this only guards against a transaction left open.
    if (connection.batch) await this.rollbackTransaction(connection);
  }

  async destroy() {
    await this.lock.acquire();
    try {
      if (this.batch) this.commit();
    } finally {
      this.reader.close();
      this.writer.close();
      this.lock.release();
    }
  }

  /** A statement of a transaction: on the writer, inside the transaction's savepoint. */
  inTransaction(query: CompiledQuery, batch: Batch): QueryResult<unknown> {
    // Its batch was rolled back as a whole: on the writer now, the statement would commit on its own.
    if (batch !== this.batch) throw new Error('the transaction was rolled back with its batch');
    if (isSchemaChange(query.sql)) batch.changedSchema = true;
    try {
      return run(this.onWriter(query.sql), query.parameters);
    } catch (error) {
      this.abandonIfRolledBack(error);
      throw error;
    }
  }

  /** A statement outside any transaction. */
  async autocommit(query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (OUTSIDE_TRANSACTIONS.test(query.sql)) return this.alone(query);
    if (READS.test(query.sql)) {
      const read = this.onReader(query.sql);
      if (read.readonly) return run(read, query.parameters);
    }
    // A write on its own is a transaction of one statement.
    const connection = new GroupCommitConnection(this);
    await this.beginTransaction(connection);
    let result: QueryResult<unknown>;
    try {
      result = this.inTransaction(query, connection.batch as Batch);
    } catch (error) {
      await this.rollbackTransaction(connection);
      throw error;
    }
    await this.commitTransaction(connection);
    return result;
  }

  /**
   * Kysely streams only SELECTs. The rows are read at once: an iterator left open across awaits
   * would keep the connection busy for every other query.
   */
  stream(query: CompiledQuery, inTransaction: boolean): unknown[] {
    if (!SelectQueryNode.is(query.query)) throw new Error('the SQLite store streams only SELECT queries');
    const statement = inTransaction ? this.onWriter(query.sql) : this.onReader(query.sql);
    return statement.all(query.parameters);
  }

  /** The open batch, or a new one, committed once everything ready in this turn of the event loop has run. */
  private async join(): Promise<Batch> {
    if (this.batch) return this.batch;
    await this.unlessBusy(() => this.onWriter('begin immediate').run());
    const batch = new Batch();
    this.batch = batch;
    afterThisTurn(() => void this.commitWhenFree(batch));
    return batch;
  }

  /**
   * Runs `statement`, waiting while another connection holds the file's write lock (a script such
   * as create-admin, another store on the same file in tests) without blocking the event loop, as
   * SQLite's own busy timeout would: the holder may be this very process, committing later.
   */
  private async unlessBusy<T>(statement: () => T): Promise<T> {
    const deadline = Date.now() + this.busyTimeoutMs;
    for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
      try {
        return statement();
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Ends a transaction's savepoint, keeping or undoing its writes, and lets the next transaction run. */
  private leave(connection: GroupCommitConnection, keep: boolean): { batch: Batch; error?: unknown } {
    const batch = connection.batch as Batch;
    connection.batch = undefined;
    try {
      // A batch rolled back as a whole (its done rejects) has no savepoint left to end.
      if (this.batch === batch) {
        if (keep) this.onWriter(`release ${UNIT}`).run();
        else this.undo();
      }
      return { batch };
    } catch (error) {
      this.abandonIfRolledBack(error);
      if (this.batch === batch) this.undo();
      return { batch, error };
    } finally {
      this.lock.release();
    }
  }

  /** Undoes the running transaction's writes; if even that fails, the whole batch is rolled back. */
  private undo() {
    try {
      this.onWriter(`rollback to ${UNIT}`).run();
      this.onWriter(`release ${UNIT}`).run();
    } catch (error) {
      if (this.writer.inTransaction) this.writer.exec('rollback');
      this.abandonIfRolledBack(error);
    }
  }

  private async commitWhenFree(batch: Batch) {
    await this.lock.acquire();
    try {
      if (this.batch === batch) this.commit();
    } finally {
      this.lock.release();
    }
  }

  /** COMMIT (its fsync) of the open batch, then every transaction in it is answered. Holds the lock. */
  private commit() {
    const batch = this.batch as Batch;
    this.batch = undefined;
    try {
      this.onWriter('commit').run();
      if (batch.changedSchema) this.onReader.clear();
      batch.settle();
      this.onCommit(batch.transactions);
    } catch (error) {
      if (this.writer.inTransaction) this.writer.exec('rollback');
      batch.settle(error);
    }
  }

  /** Some errors (a full disk, an I/O error) make SQLite roll back the whole outer transaction. */
  private abandonIfRolledBack(error: unknown) {
    if (this.batch && !this.writer.inTransaction) {
      const batch = this.batch;
      this.batch = undefined;
      batch.settle(error);
    }
  }

  /** A statement that must not run inside a transaction: the open batch commits first. */
  private async alone(query: CompiledQuery): Promise<QueryResult<unknown>> {
    await this.lock.acquire();
    try {
      if (this.batch) this.commit();
      return await this.unlessBusy(() => run(this.onWriter(query.sql), query.parameters));
    } finally {
      this.lock.release();
    }
  }
}

class GroupCommitConnection implements DatabaseConnection {
  /** Set while a transaction of this connection is open: the batch it runs in. */
  batch: Batch | undefined;

  constructor(private readonly driver: GroupCommitDriver) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = this.batch ? this.driver.inTransaction(query, this.batch) : await this.driver.autocommit(query);
    return result as QueryResult<R>;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    for (const row of this.driver.stream(query, this.batch !== undefined)) yield { rows: [row as R] };
  }
}
