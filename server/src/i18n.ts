import { DEFAULT_LANGUAGE, type Language, preferredLanguage } from '@csomag/domain/language';
import { messages } from '@csomag/domain/messages';
import { en } from '@csomag/domain/messages-en';
import { translator } from '@csomag/domain/translate';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

/**
 * The language a request is answered in (issue 30): the signed-in account's choice, else what its
 * Accept-Language prefers, else Hungarian.
 */
export function requestLanguage(
  request: Pick<FastifyRequest, 'headers'> & { account?: { language: Language | null } | null },
) {
  return request.account?.language ?? preferredLanguage(request.headers['accept-language']);
}

let toEnglish: ((text: string) => string) | undefined;

/**
 * A text the server wrote (always from the Hungarian catalogue: a refusal, a schema's message fixed
 * when the schema was made) in `language`. The translator is built at the first English answer.
 */
export function sayIn(language: Language, text: string): string {
  if (language === DEFAULT_LANGUAGE) return text;
  toEnglish ??= translator(messages, en);
  return toEnglish(text);
}

type ZodIssueLike = Parameters<NonNullable<ReturnType<typeof z.locales.en>['localeError']>>[0];
const zodEnglish = z.locales.en().localeError;

/**
 * A schema's refusal of a field in `language`: ours through the catalogue; one the catalogue does
 * not know is zod's own (a wrong type, said in Hungarian by the server's zod configuration), said
 * by zod's English locale from the issue.
 */
export function sayIssueIn(language: Language, message: string, issue: ZodIssueLike): string {
  if (language === DEFAULT_LANGUAGE) return message;
  const ours = sayIn(language, message);
  if (ours !== message) return ours;
  const said = zodEnglish(issue);
  return (typeof said === 'string' ? said : said?.message) ?? message;
}
