/**
 * The child half of bench/lib/app-process.ts: the real app (buildApp, the same plugins, routes and
 * store as production) listening on 127.0.0.1 on a free port, in its own process so the load
 * generator does not share its event loop. Talks to the parent over the fork IPC channel:
 * sends {type:'ready', port}; answers {type:'memory'} with process.memoryUsage() (after a full GC
 * when started with --expose-gc); {type:'close'} closes the app and the store and exits.
 * With BENCH_BARE=1, bare Fastify with one constant-JSON route instead: the ceiling to compare with;
 * BENCH_BARE_ROUTES (a JSON file of path → response text) adds routes answering exactly those bytes.
 * BENCH_LOGS=1 runs the app at its default log level (production's logger; stdout goes nowhere).
 * BENCH_DATABASE_URL (and BENCH_PG_SCHEMA): the app on that PostgreSQL (schema) instead of SQLite.
 * Not run directly: started by startAppProcess().
 */
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { migrateToLatest, openStore } from '../../server/src/db/database.ts';

const send = (message: unknown) => process.send?.(message);
const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir || !process.send)
  throw new Error('app-child.ts is started by startAppProcess() (bench/lib/app-process.ts)');

/** The real app; or, with BENCH_BARE=1, bare Fastify answering constant JSON (the machine's ceiling). */
async function start(): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  if (process.env.BENCH_BARE === '1') {
    const bare = Fastify();
    bare.get('/', async () => ({ hello: 'world' }));
    // The same bytes the app answered, as a string: Fastify sends it as it is.
    const routes = process.env.BENCH_BARE_ROUTES;
    const answers: Record<string, string> = routes ? JSON.parse(readFileSync(routes, 'utf8')) : {};
    for (const [path, text] of Object.entries(answers)) {
      bare.get(path, (_request, reply) => {
        reply.type('application/json; charset=utf-8').send(text);
      });
    }
    return { app: bare, close: () => bare.close() };
  }
  const config = loadConfig({
    DATA_DIR: dataDir as string,
    WEB_DIST: '',
    LOG_LEVEL: process.env.BENCH_LOGS === '1' ? 'info' : 'silent',
    DEMO_DATA: '0',
    TRUST_PROXY: process.env.BENCH_TRUST_PROXY ?? '0',
  });
  const store = openStore({
    dataDir: dataDir as string,
    databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
    pgSchema: process.env.BENCH_PG_SCHEMA || undefined,
  });
  await migrateToLatest(store);
  const app = await buildApp({ config, store, logger: process.env.BENCH_LOGS === '1' });
  return {
    app,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}
const { app, close: closeApp } = await start();
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no TCP address');

let closing = false;
async function close() {
  if (closing) return;
  closing = true;
  await closeApp();
  process.exit(0);
}

const gc = (globalThis as { gc?: () => void }).gc;
process.on('message', (message: { type?: string }) => {
  if (message.type === 'memory') {
    gc?.();
    send({ type: 'memory', memory: process.memoryUsage() });
  } else if (message.type === 'close') {
    void close();
  }
});
// The benchmark died or was interrupted: never outlive it.
process.on('disconnect', () => void close());
send({ type: 'ready', port: address.port });
