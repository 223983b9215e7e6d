import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { chromiumFlags, chromiumPath } from './chromium.ts';

const port = Number(process.env.E2E_PORT || 3210);
// The server's data folder, made once by the runner: its workers inherit the variable, so a spec can
// import into the server's store (timetable.spec.ts runs gtfs:import against it).
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'csomag-e2e-'));
export const e2eDataDir = process.env.E2E_DATA_DIR;
export const baseURL = `http://127.0.0.1:${port}`;
export const e2eAdmin = { email: 'e2e-admin@example.hu', password: 'e2e-admin-jelszo' };

const chromiumArgs = [
  ...chromiumFlags,
  // serving.spec.ts opens the app as a LAN host name over plain HTTP, as a home server is reached:
  // Chromium resolves that name to the e2e server itself, no /etc/hosts needed.
  '--host-resolver-rules=MAP csomagkuldo.lan 127.0.0.1',
];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  // Generous, never a speed check: CI's machines have run these steps three to four times slower
  // than a quiet one (a QR hand-over with three browsers took 59 s of the 60 once allowed).
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: 'list',
  outputDir: '../test-results',
  use: {
    ...devices['Desktop Chrome'],
    baseURL,
    locale: 'hu-HU',
    timezoneId: 'Europe/Budapest',
    viewport: { width: 1280, height: 900 },
    // Recording a trace for every test (kept only for failures) costs CI's 2 cores ~30 % of the
    // suite's time and, with it, the slack that fixed windows like a 3.5 s toast need. Off unless
    // asked for: E2E_TRACE=retain-on-failure when a failure is to be looked into.
    trace: (process.env.E2E_TRACE as 'retain-on-failure' | undefined) ?? 'off',
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
  webServer: {
    // The production build on a fresh, empty data folder.
    command: 'node server/dist/main.js',
    cwd: '..',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: e2eDataDir,
      // A timetable imported by a spec is noticed within a second, not half a minute.
      TIMETABLE_CHECK_SECONDS: '1',
      DEMO_DATA: '0',
      ADMIN_EMAIL: e2eAdmin.email,
      ADMIN_PASSWORD: e2eAdmin.password,
      LOG_LEVEL: 'warn',
      // Like a deployment behind a proxy: each test gets its own client address (fixtures.ts),
      // so the real abuse limits stay on without one suite-wide IP exhausting them.
      TRUST_PROXY: '1',
      // No tile server is reachable here; the maps still render their markers.
      TILE_URL: `${baseURL}/tiles/{z}/{x}/{y}.png`,
      // push.spec.ts: devices whose push service is the test's fake on 127.0.0.1 (plain http).
      PUSH_ALLOW_LOOPBACK: '1',
    },
  },
});
