import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { trackConnections } from './connections.ts';
import { openStore } from './db/database.ts';
import { prepareDatabase } from './startup.ts';

const config = loadConfig();
let app: Awaited<ReturnType<typeof buildApp>> | undefined;
const store = openStore({
  ...config,
  // A connection the database dropped is replaced on next use; it is worth a line in the log, not a crash.
  onConnectionError: (error) => app?.log.warn({ err: error }, 'database connection lost'),
});
app = await buildApp({ config, store });
const printed = await prepareDatabase(store, config, app.log);
if (printed) console.log(printed);
const connections = trackConnections(app.server);

let stopping = false;
/**
 * Graceful drain (docs/operations.md): not ready at once, so the load balancer stops sending;
 * event streams are told to come back elsewhere; no new connections; idle keep-alive sockets
 * closed; in-flight requests finish; the store is closed. Past SHUTDOWN_TIMEOUT, exit anyway.
 */
async function shutdown(signal: string) {
  if (stopping || !app) return;
  stopping = true;
  const log = app.log;
  log.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'draining');
  const forced = setTimeout(() => {
    log.error('shutdown timed out: in-flight requests cut off');
    app?.server.closeAllConnections();
    void store.close().finally(() => process.exit(1));
  }, config.shutdownTimeoutMs).unref();
  app.lifecycle.drain();
  const closed = app.close();
  connections.drain();
  await closed;
  await store.close();
  clearTimeout(forced);
  log.info('shutdown complete');
  // Give pino's asynchronous destination a chance to write the last lines.
  setImmediate(() => process.exit(0));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void shutdown(signal));

await app.listen({ port: config.port, host: config.host });
