import { parseArgs } from 'node:util';

/**
 * The one option an operator command needs (`--to FILE`, `--from FILE`), or the usage on stderr
 * and exit code 2 when it is missing, empty, unknown or followed by a stray argument.
 */
export function requiredOption(name: string, usage: string): string {
  let value: string | undefined;
  try {
    value = parseArgs({ options: { [name]: { type: 'string' } } }).values[name] as string | undefined;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
  }
  if (!value) {
    console.error(usage);
    process.exit(2);
  }
  return value;
}
