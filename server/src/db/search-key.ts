import { HUNGARIAN_ACCENT_FOLDS } from '@csomag/domain/address';
import type { Dialect } from './database.ts';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * domain's searchKey(column) in a store's SQL: the accented letters replaced, then ASCII lowered —
 * lower() on SQLite (it knows only ASCII), translate() on PostgreSQL, whose lower() would also
 * lower "Ç" and answer other searches than SQLite. PostgreSQL uses an expression index only for
 * the same expression, so the index (migration 0019) and the search (users/directory.ts) both
 * take theirs from here.
 */
export function searchKeySql(dialect: Dialect, column: string): string {
  let text = column;
  for (const [accented, plain] of HUNGARIAN_ACCENT_FOLDS) text = `replace(${text}, '${accented}', '${plain}')`;
  return dialect === 'postgres' ? `translate(${text}, '${UPPER}', '${UPPER.toLowerCase()}')` : `lower(${text})`;
}
