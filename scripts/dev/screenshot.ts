// A full-page screenshot of one URL: node --import tsx scripts/dev/screenshot.ts <url> <out.png> [width] [height]
import { chromium } from '@playwright/test';
import { chromiumFlags, chromiumPath } from '../../e2e/chromium.ts';

const [url, out, w = '1280', h = '900'] = process.argv.slice(2);
const b = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
const p = await b.newPage({ viewport: { width: +w, height: +h } });
await p.goto(url);
await p.waitForTimeout(800);
await p.screenshot({ path: out, fullPage: true });
await b.close();
