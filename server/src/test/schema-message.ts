import type { z } from 'zod';

/**
 * The message a domain schema gives for `value`: what a refusal names beside a field whose text
 * lives in the schema rather than in the catalogue, so a test need not write it out.
 */
export function schemaMessage(schema: z.ZodType, value: unknown): string {
  const result = schema.safeParse(value);
  const message = result.error?.issues[0]?.message;
  if (!message) throw new Error(`the schema accepts ${JSON.stringify(value)}`);
  return message;
}
