import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { loadConfig, VAPID_KEYS_FILE } from '../../config.ts';

/** The VAPID keys: generated once into DATA_DIR like the session secret, or taken from the environment. */
describe('VAPID configuration', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'csomag-vapid-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('generates a key pair into DATA_DIR on first start (mode 600) and keeps it across restarts', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).vapid;
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(first.privateKey, 'base64url')).toHaveLength(32);
    expect(statSync(join(dir, VAPID_KEYS_FILE)).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).vapid).toEqual(first);
    expect(loadConfig({ DATA_DIR: dataDir() }).vapid.publicKey).not.toBe(first.publicKey);
  });

  it('takes the keys and the subject from the environment, the same on every instance', () => {
    const keys = webpush.generateVAPIDKeys();
    const env = {
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:a@b.hu',
    };
    expect(loadConfig({ ...env, DATA_DIR: dataDir() }).vapid).toEqual({ ...keys, subject: 'mailto:a@b.hu' });
    expect(loadConfig({ ...env, DATA_DIR: dataDir() }).vapid).toEqual({ ...keys, subject: 'mailto:a@b.hu' });
  });

  it('names an https PUBLIC_URL, else the admin email, as the subject when none is given', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://csomag.example.hu/' }).vapid.subject).toBe(
      'https://csomag.example.hu',
    );
    expect(
      loadConfig({ DATA_DIR: dataDir(), ADMIN_EMAIL: 'ops@example.hu', ADMIN_PASSWORD: 'x'.repeat(12) }).vapid.subject,
    ).toBe('mailto:ops@example.hu');
  });

  it('refuses half a key pair, keys of the wrong size, and a subject that is no mailto: or https: URL', () => {
    const keys = webpush.generateVAPIDKeys();
    expect(() => loadConfig({ DATA_DIR: dataDir(), VAPID_PUBLIC_KEY: keys.publicKey })).toThrow(/go together/);
    expect(() =>
      loadConfig({ DATA_DIR: dataDir(), VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: keys.privateKey }),
    ).toThrow(/65 bytes/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), VAPID_SUBJECT: 'http://example.hu' })).toThrow(/VAPID_SUBJECT/);
  });
});
