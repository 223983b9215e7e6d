import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { migrateToLatest, openStore } from '../db/database.ts';
import { ensureSuperadmin } from '../modules/auth/superadmin.ts';

// npm run create-admin -- --email ops@example.hu --password '…'
const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } });
if (!values.email || !values.password) {
  console.error('usage: npm run create-admin -- --email <email> --password <at least 6 characters>');
  process.exit(2);
}
const config = loadConfig();
const store = openStore(config);
try {
  await migrateToLatest(store);
  const admin = await ensureSuperadmin(store.db, values.email, values.password);
  console.log(`superadmin ready: ${admin.email} (${admin.user_name}) on ${store.dialect}`);
} catch (error) {
  console.error(`could not create the superadmin: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await store.close();
}
