/**
 * What a database failure means, told apart by the store's own codes here so that services never
 * see a SQLite or PostgreSQL code.
 */

const codeOf = (error: unknown) => (error instanceof Error ? (error as { code?: unknown }).code : undefined);

/** A unique index or primary key refused the row (PostgreSQL 23505; SQLite names which kind). */
export const isUniqueViolation = (error: unknown) => {
  const code = codeOf(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
};

/** A foreign key refused the change (PostgreSQL 23503, SQLite's FOREIGNKEY constraint). */
export const isForeignKeyViolation = (error: unknown) => {
  const code = codeOf(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
};

/** The table is not there (PostgreSQL 42P01; SQLite says so in its message): a database never migrated. */
export const isMissingTable = (error: unknown) =>
  codeOf(error) === '42P01' || (error instanceof Error && /no such table/.test(error.message));

/**
 * Whether a failure means the database cannot be reached right now (restart, failover, network,
 * saturated), as opposed to a fault in the query: those requests get 503 and may be retried.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = codeOf(error);
  if (typeof code === 'string') {
    // SQLSTATE class 08: connection exceptions; 57P0x: the server is shutting down or starting;
    // 53300: too many connections.
    if (code.startsWith('08') || /^57P0[1-3]$/.test(code) || code === '53300') return true;
    if (NETWORK_CODES.has(code)) return true;
    // SQLite: another process holds the write lock beyond busy_timeout, or the disk failed.
    if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_IOERR') || code === 'SQLITE_FULL') return true;
  }
  // pg reports a dropped socket and a pool wait that timed out with plain messages.
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    error.message,
  );
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);
