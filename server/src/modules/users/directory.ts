import { searchKey } from '@csomag/domain/address';
import type { AccountList, AccountListQuery } from '@csomag/domain/admin';
import type { Role } from '@csomag/domain/roles';
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import { cursorNumber, decodeCursor, pageOf } from '../../db/cursor.ts';
import type { Store } from '../../db/database.ts';
import { searchKeySql } from '../../db/search-key.ts';
import { presentAccount } from '../auth/present.ts';

/** Finding accounts by name for the back office: the runner list, the sender picker. */

/** A cursor part may hold a whole name (up to 100 characters). */
export const CURSOR_PART_MAX = 120;

/** The accounts' names as searchKey folds them, so "adam" finds "Ádám" (the expression the index holds). */
const nameKey = (dialect: Store['dialect']): RawBuilder<string> => sql.raw(searchKeySql(dialect, 'accounts.name'));

/** A LIKE pattern for text containing `q`'s search key, with the wildcards escaped. */
function containsPattern(q: string): string {
  return `%${searchKey(q).replace(/[\\%_]/g, '\\$&')}%`;
}

/** Whether a trigram index can find `q`'s matches: three characters at least; shorter ones are read by name. */
const byTrigrams = (q: string) => [...q].length >= 3;

/**
 * Name (folded) or user name containing `q`. PostgreSQL finds the LIKE's matches in its pg_trgm
 * indexes by itself. SQLite cannot index a LIKE '%…%': its trigram table holds the same folded
 * name and lower-case user name (migration 0010), where a phrase matches exactly where the LIKE
 * would, without folding every account's name on each search.
 */
export const matchesSearch = (dialect: Store['dialect'], q: string): Expression<SqlBool> => {
  if (dialect === 'sqlite' && byTrigrams(q)) {
    // An FTS5 string: every character literal, a double quote doubled (a NUL, which would end
    // it early, never gets this far: plugins/request-guards.ts refuses control characters).
    const phrase = `"${searchKey(q).replaceAll('"', '""')}"`;
    return sql<SqlBool>`accounts.id in (select rowid from accounts_search where accounts_search match ${phrase})`;
  }
  const pattern = containsPattern(q);
  return sql<SqlBool>`(${nameKey(dialect)} like ${pattern} escape ${sql.lit('\\')} or lower(accounts.user_name) like ${pattern} escape ${sql.lit('\\')})`;
};

/** Accounts by name (then id), page by page; `role` and `q` (name or user name) narrow them. */
export async function accountsByName(
  { db, dialect }: Pick<Store, 'db' | 'dialect'>,
  role: Role | undefined,
  query: Pick<AccountListQuery, 'q' | 'limit' | 'cursor'>,
): Promise<AccountList> {
  const sqliteTrigrams = dialect === 'sqlite' && query.q !== undefined && byTrigrams(query.q);
  let matches = db.selectFrom('accounts').selectAll('accounts');
  // SQLite starts from the trigram table's matches only if the role's index is out of its reach:
  // without ANALYZE's figures (the app never runs it) it would walk every account of the role.
  if (role) matches = matches.where(sqliteTrigrams ? sql`+accounts.role` : sql.ref('accounts.role'), '=', role);
  if (query.q) matches = matches.where(matchesSearch(dialect, query.q));
  if (query.cursor) {
    const [name = '', id = ''] = decodeCursor(query.cursor, 2, CURSOR_PART_MAX);
    matches = matches.where((eb) =>
      eb(eb.refTuple('accounts.name', 'accounts.id'), '>', eb.tuple(name, cursorNumber(id, { integer: true }))),
    );
  }
  // PostgreSQL's planner expects a search's matches spread evenly through the names, so it walks
  // them in order to stop early; but a common family name sits mid-alphabet (every Nagy after
  // 20,000 others at 40,000 accounts: 90 ms). Read from the trigram indexes and then sorted, a
  // search costs what it finds; OFFSET 0 keeps the planner from merging the two steps.
  const page =
    dialect === 'postgres' && query.q && byTrigrams(query.q)
      ? db.selectFrom(matches.offset(0).as('accounts')).selectAll()
      : matches;
  const rows = await page
    .orderBy('accounts.name')
    .orderBy('accounts.id')
    .limit(query.limit + 1)
    .execute();
  return pageOf(rows, query.limit, presentAccount, (last) => [last.name, String(last.id)]);
}
