import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../seed/demo.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

/** The operator's pages (issue 29): their Markdown as safe HTML, or null until they publish it. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const page = (name: string) => t.app.inject({ method: 'GET', url: `/api/pages/${name}` });

describe('GET /api/pages/:page', () => {
  it('answers null for a page the operator has not published, to anyone', async () => {
    for (const name of ['privacy', 'contact', 'imprint']) {
      const answer = await page(name);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ page: name, html: null });
    }
    expect((await page('cookies')).statusCode).toBe(400);
  });

  it('renders the operator’s Markdown, never their HTML or a script link', async () => {
    const dir = join(t.app.config.dataDir, 'pages');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'impresszum.md'),
      '# Impresszum\n\nÜzemeltető: **Példa Kft.**\n\n<script>alert(1)</script>\n\n[kattints](javascript:alert(1)) · <img src=x onerror=alert(1)>\n\nhttps://pelda.hu\n',
    );
    const { html } = (await page('imprint')).json();
    expect(html).toContain('<h1>Impresszum</h1>');
    expect(html).toContain('<strong>Példa Kft.</strong>');
    expect(html).toContain('<a href="https://pelda.hu">https://pelda.hu</a>');
    expect(html).not.toMatch(/<script|<img|href="javascript:/i);
    expect(html).toContain('&lt;script&gt;');
    // Edited: the new text is served.
    writeFileSync(join(dir, 'impresszum.md'), '# Impresszum\n\nÚj szöveg, hosszabb mint az előző volt.\n');
    expect((await page('imprint')).json().html).toContain('Új szöveg');
  });

  it('reads a page from the path the environment names', async () => {
    const file = join(t.app.config.dataDir, 'sajat-adatvedelem.md');
    writeFileSync(file, '# Adatvédelem\n\nSaját szöveg.\n');
    const other = await createTestApp({ PRIVACY_PAGE: file });
    try {
      const answer = await other.app.inject({ method: 'GET', url: '/api/pages/privacy' });
      expect(answer.json().html).toContain('Saját szöveg.');
    } finally {
      await other.close();
    }
  });

  it('ships example pages with the demo data', async () => {
    const demo = await createTestApp();
    try {
      await seedDemoData(demo.store.db, demo.app.config.dataDir);
      const file = join(demo.app.config.dataDir, 'pages', 'adatvedelem.md');
      expect(readFileSync(file, 'utf8')).toBe(messages.demoPrivacyPage);
      const answer = await demo.app.inject({ method: 'GET', url: '/api/pages/contact' });
      expect(answer.json().html).toContain('<h1>Kapcsolat (minta)</h1>');
    } finally {
      await demo.close();
    }
  });
});
