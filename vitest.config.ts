import { configDefaults, defineConfig } from 'vitest/config';

// The server suite runs once on SQLite and, when TEST_DATABASE_URL is set, again on PostgreSQL.
const serverOn = (store: 'sqlite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `server-${store}`,
    include: ['server/src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'server/src/integration/**'],
    environment: 'node',
    env: { TEST_STORE: store },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

export default defineConfig({
  test: {
    // One module graph per worker, not per file: importing the server for each of ~120 files took
    // half the suite's time (14 → 7.5 min for both stores). No test mocks modules or stubs globals,
    // and each builds its own app on its own database (createTestApp), so nothing leaks between files.
    isolate: false,
    projects: [
      { extends: true, test: { name: 'domain', include: ['domain/src/**/*.test.ts'] } },
      // The web's pure parts (the router's matching); its screens are tested in Chromium (e2e/).
      { extends: true, test: { name: 'web', include: ['web/src/**/*.test.ts'], environment: 'node' } },
      serverOn('sqlite'),
      ...(process.env.TEST_DATABASE_URL ? [serverOn('postgres')] : []),
      // Real instances as child processes (server/src/test/instances.ts): SIGTERM, several instances
      // on one PostgreSQL database. The PostgreSQL parts run when TEST_DATABASE_URL is set.
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['server/src/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
