import { messages } from '@csomag/domain/messages';
import { refuseField } from '../errors.ts';

/**
 * Opaque keyset-pagination cursors: the last row's sort key as base64url JSON. Keyset (not
 * offset) paging stays fast on deep pages and never skips a row when new ones arrive on top.
 */
export function encodeCursor(key: readonly string[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The sort key a cursor carries; a 400 naming `cursor` when it is not one of ours. */
export function decodeCursor(cursor: string, length: number, maxPartLength = 64): string[] {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(key) &&
      key.length === length &&
      key.every((part) => typeof part === 'string' && part.length <= maxPartLength)
    ) {
      return key;
    }
  } catch {
    // falls through to the 400 below
  }
  throw invalidCursor();
}

/** The one refusal of a cursor this list did not hand out (forged, stale, from another list). */
export const invalidCursor = () => refuseField('invalid_cursor', 'cursor', messages.invalidCursor);

/** A numeric part of a cursor (a distance, an id); anything else is a cursor we did not hand out. */
export function cursorNumber(part: string, { integer = false } = {}): number {
  const value = Number(part);
  const valid = part !== '' && (integer ? Number.isSafeInteger(value) : Number.isFinite(value));
  if (!valid) throw invalidCursor();
  return value;
}

/**
 * One page from `limit + 1` rows: the extra row only tells that there is a next page, whose
 * cursor is the last shown row's sort key (`keyOf`; null when that row cannot be a cursor).
 */
export function pageOf<Row, Item>(
  rows: Row[],
  limit: number,
  present: (row: Row) => Item,
  keyOf: (row: Row) => readonly string[] | null,
): { items: Item[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const key = rows.length > limit && last !== undefined ? keyOf(last) : null;
  return { items: items.map(present), nextCursor: key ? encodeCursor(key) : null };
}
