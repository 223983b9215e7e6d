import { z } from 'zod';
import { messages } from './messages.ts';

/**
 * Text a person can type. Control characters (C0 but tab and line breaks, DEL, C1) are never
 * typed: a NUL ends an FTS5 phrase early inside SQLite and PostgreSQL refuses it in any text, so
 * a request that carries one is refused at the door (issue 32). A lone surrogate is not text either.
 */
const FORBIDDEN_CHARACTER =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

export const hasForbiddenCharacter = (text: string) => FORBIDDEN_CHARACTER.test(text);

/** A search box's text (a name, a user name): trimmed, at most 100 characters, and text. */
export const searchField = z
  .string()
  .trim()
  .max(100, { error: messages.searchTooLong })
  .refine((text) => !hasForbiddenCharacter(text), { error: messages.invalidQueryText });
