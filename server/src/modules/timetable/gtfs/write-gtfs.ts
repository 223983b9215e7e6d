import { writeFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';

/** GTFS zips written for tests, end-to-end runs and benchmarks (fflate is a dev dependency: nothing else imports this). */

/** A zip of GTFS files: name → CSV text. */
export function gtfsZip(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));
}

export function writeGtfsZip(path: string, files: Record<string, string>): void {
  writeFileSync(path, gtfsZip(files));
}

/** CSV text with a line per row; a field with a comma, a quote or a line break is quoted. */
export function csv(rows: readonly (readonly (string | number)[])[]): string {
  const field = (value: string | number) => {
    const text = String(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return `${rows.map((row) => row.map(field).join(',')).join('\n')}\n`;
}
