import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { migrateToLatest, openStore } from './db/database.ts';
import { ensureSuperadmin } from './modules/auth/superadmin.ts';
import { seedDemoData } from './seed/demo.ts';

const config = loadConfig();
const store = openStore(config);
await migrateToLatest(store);
const app = await buildApp({ config, store });

if (config.adminEmail && config.adminPassword) {
  await ensureSuperadmin(store.db, config.adminEmail, config.adminPassword);
  app.log.info({ email: config.adminEmail }, 'superadmin ready');
}
// Demo data only on an empty embedded database, or on PostgreSQL when DEMO_DATA=1 asks for it.
const demoAsked = store.dialect === 'sqlite' ? config.demoData : process.env.DEMO_DATA === '1';
if (demoAsked) {
  const printed = await seedDemoData(store.db, config.dataDir);
  const saved = join(config.dataDir, 'demo-credentials.txt');
  if (printed) console.log(printed);
  else if (existsSync(saved)) console.log(`Demo accounts: see ${saved}`);
}

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    await app.close();
    await store.close();
    clearTimeout(timer);
    process.exit(0);
  });
}

await app.listen({ port: config.port, host: config.host });
