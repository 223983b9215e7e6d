import { foldAccents, HUNGARIAN_ACCENT_FOLDS } from '@csomag/domain/address';
import type { AccountList, AccountListQuery } from '@csomag/domain/admin';
import type { Role } from '@csomag/domain/roles';
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { cursorNumber, decodeCursor, pageOf } from '../../db/cursor.ts';
import type { Database } from '../../db/schema.ts';
import { presentAccount } from '../auth/present.ts';

/** Finding accounts by name for the back office: the runner list, the sender picker. */

/** A cursor part may hold a whole name (up to 100 characters). */
export const CURSOR_PART_MAX = 120;

/** A column folded like foldAccents, the same way on both stores, so "adam" finds "Ádám". */
function folded(column: string): RawBuilder<string> {
  let text: RawBuilder<string> = sql`${sql.ref(column)}`;
  for (const [from, to] of HUNGARIAN_ACCENT_FOLDS) text = sql`replace(${text}, ${sql.lit(from)}, ${sql.lit(to)})`;
  return sql`lower(${text})`;
}

/** A LIKE pattern for text containing `q`, folded like `folded()`, with the wildcards escaped. */
function containsPattern(q: string): string {
  return `%${foldAccents(q).replace(/[\\%_]/g, '\\$&')}%`;
}

export const matchesSearch = (q: string): Expression<SqlBool> => {
  const pattern = containsPattern(q);
  return sql<SqlBool>`(${folded('accounts.name')} like ${pattern} escape ${sql.lit('\\')} or lower(accounts.user_name) like ${pattern} escape ${sql.lit('\\')})`;
};

/** Accounts by name (then id), page by page; `role` and `q` (name or user name) narrow them. */
export async function accountsByName(
  db: Kysely<Database>,
  role: Role | undefined,
  query: Pick<AccountListQuery, 'q' | 'limit' | 'cursor'>,
): Promise<AccountList> {
  let page = db.selectFrom('accounts').selectAll('accounts');
  if (role) page = page.where('accounts.role', '=', role);
  if (query.q) page = page.where(matchesSearch(query.q));
  if (query.cursor) {
    const [name = '', id = ''] = decodeCursor(query.cursor, 2, CURSOR_PART_MAX);
    page = page.where((eb) =>
      eb(eb.refTuple('accounts.name', 'accounts.id'), '>', eb.tuple(name, cursorNumber(id, { integer: true }))),
    );
  }
  const rows = await page
    .orderBy('accounts.name')
    .orderBy('accounts.id')
    .limit(query.limit + 1)
    .execute();
  return pageOf(rows, query.limit, presentAccount, (last) => [last.name, String(last.id)]);
}
