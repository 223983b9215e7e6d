// Screenshots of the main screens on a demo install: node --import tsx scripts/dev/tour.ts <base> <data-dir> <out-dir>
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumFlags, chromiumPath } from '../../e2e/chromium.ts';

const [base, dataDir, out] = process.argv.slice(2);
const creds = Object.fromEntries(
  readFileSync(`${dataDir}/demo-credentials.txt`, 'utf8')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((p) => p.length === 3)
    .map(([role, email, password]) => [role, { email, password }]),
);
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
async function tour(role, pages, viewport) {
  const context = await browser.newContext({
    baseURL: base,
    viewport,
    permissions: ['geolocation'],
    geolocation: { latitude: 47.4935, longitude: 19.0531 },
  });
  await context.request.post('/api/auth/login', { data: creds[role] });
  const page = await context.newPage();
  for (const path of pages) {
    await page.goto(path);
    await page.waitForTimeout(1200);
    await page.screenshot({
      path: `${out}/${role}-${viewport.width}-${path.replaceAll('/', '_')}.png`,
      fullPage: true,
    });
  }
  await context.close();
}
await tour('superadmin', ['/SaCsomagListazas', '/SaCsomagFutarhozRendeles', '/SaTerkep', '/SaFutarListazas'], {
  width: 1280,
  height: 800,
});
await tour('runner', ['/FutarDashboard', '/FutarTerkep'], { width: 390, height: 800 });
await tour('user', ['/CsomagFeladas', '/FelhasznaloDashboard'], { width: 390, height: 800 });
await browser.close();
