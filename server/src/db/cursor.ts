import { messages } from '@csomag/domain/messages';
import { badRequest } from '../errors.ts';

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
  throw badRequest(messages.invalidCursor, { cursor: messages.invalidCursor });
}
