import { chromium } from '@playwright/test';

const [url, out, w = '1280', h = '900'] = process.argv.slice(2);
const b = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const p = await b.newPage({ viewport: { width: +w, height: +h } });
await p.goto(url);
await p.waitForTimeout(800);
await p.screenshot({ path: out, fullPage: true });
await b.close();
