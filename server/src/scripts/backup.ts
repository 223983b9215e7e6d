import { backupDatabase, dataDirFromEnv } from '../db/backup.ts';
import { requiredOption } from './cli.ts';

// npm run backup -- --to /backups/csomagkuldo-2025-01-31.sqlite   (online: the app keeps serving)
const usage = 'usage: npm run backup -- --to <file that does not exist yet>   (reads DATA_DIR, default ./data)';

const to = requiredOption('to', usage);

try {
  // Not loadConfig: it would create DATA_DIR and a session secret.
  const result = backupDatabase({ dataDir: dataDirFromEnv(process.env), to, env: process.env });
  console.log(
    `backup written: ${result.file} (${result.bytes} bytes, ${result.parcels} parcels, ${result.accounts} accounts)`,
  );
  console.log(
    result.sessionSecretFile
      ? `session secret written: ${result.sessionSecretFile} (keep it with the backup, it is a secret)`
      : `session secret not written: ${result.sessionSecretNote}`,
  );
  if (result.vapidKeysFile) {
    console.log(`push keys written: ${result.vapidKeysFile} (keep them with the backup, they are secret)`);
  }
} catch (error) {
  console.error(`backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
