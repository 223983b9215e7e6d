import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

/** RUNNER_APPROVAL and PROOF_RETENTION_DAYS (issue 15): defaults, accepted values, and a clear refusal at start. */
describe('trust configuration', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'csomag-trust-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env });

  it('approves new runners at once and keeps proof 30 days unless told otherwise', () => {
    expect(load({})).toMatchObject({ runnerApproval: 'auto', proofRetentionDays: 30 });
    expect(load({ RUNNER_APPROVAL: 'manual', PROOF_RETENTION_DAYS: '90' })).toMatchObject({
      runnerApproval: 'manual',
      proofRetentionDays: 90,
    });
  });

  it('refuses to start on a value it does not know', () => {
    expect(() => load({ RUNNER_APPROVAL: 'sometimes' })).toThrow('RUNNER_APPROVAL must be auto or manual');
    for (const days of ['0', '-3', '1.5', 'thirty']) {
      expect(() => load({ PROOF_RETENTION_DAYS: days })).toThrow('PROOF_RETENTION_DAYS must be a whole number of days');
    }
  });
});
