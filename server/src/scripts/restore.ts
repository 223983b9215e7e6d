import { dataDirFromEnv, restoreDatabase } from '../db/backup.ts';
import { requiredOption } from './cli.ts';

// npm run restore -- --from /backups/csomagkuldo-2025-01-31.sqlite   (into a DATA_DIR without a database)
const usage =
  'usage: npm run restore -- --from <backup file>   (into DATA_DIR, default ./data, which holds no database)';

const from = requiredOption('from', usage);

try {
  // Not loadConfig: it would create DATA_DIR and a session secret the backup's must then replace.
  const result = restoreDatabase({ dataDir: dataDirFromEnv(process.env), from, env: process.env });
  console.log(
    `database restored: ${result.file} (${result.bytes} bytes, ${result.parcels} parcels, ${result.accounts} accounts)`,
  );
  const secret = result.sessionSecretFile;
  console.log(
    {
      restored: `session secret restored: ${secret}`,
      'already in place': `session secret: the same one is already at ${secret}`,
      'not in the backup':
        'no session secret beside the backup: start the app with the SESSION_SECRET it had, ' +
        'or QR handover links given out before stop working',
    }[result.sessionSecret],
  );
  console.log(
    {
      restored: `push keys restored: ${result.vapidKeysFile}`,
      'already in place': `push keys: the same ones are already at ${result.vapidKeysFile}`,
      'not in the backup':
        'no push keys beside the backup: unless VAPID_* is set, new ones are made and every device must turn notifications on again',
    }[result.vapidKeys],
  );
} catch (error) {
  console.error(`restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
