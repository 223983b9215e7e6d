import type { operations as hu } from '../hu/operations.ts';
import type { Translation } from '../translation.ts';

/**
 * Texts the server writes by itself rather than in answer to a screen: the operator's messages
 * (start-up, backup and restore), the API document's title, the offline geocoder's place labels.
 */
export const operations = {
  // the operator (docs/operations.md)
  apiTitle: 'Csomagküldő API',
  instanceAlreadyRunning: (dataDir: string) =>
    `Another Csomagküldő instance is already using ${dataDir}. The embedded database serves one instance; run several on PostgreSQL (DATABASE_URL).`,
  notOurDatabase: (label: string, missingTables: string) =>
    `${label} is not a Csomagküldő database: it lacks the table(s) ${missingTables}`,

  // where the offline geocoder placed an address (the sender sees it)
  budapestDistrict: (romanNumeral: string) => `Budapest District ${romanNumeral}`,
} as const satisfies Translation<typeof hu>;
