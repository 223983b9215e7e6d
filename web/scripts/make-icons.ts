/**
 * Draws the installable app's icons (web/public/icons/*.png) from the favicon's parcel drawing,
 * rendered by Chromium. Run by hand when the drawing changes: `node --import tsx web/scripts/make-icons.ts`;
 * the PNGs are committed, so the build needs no browser.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const BRAND = '#c2410c';
const out = new URL('../public/icons/', import.meta.url).pathname;

/** The parcel on the brand colour; `inset` is the share of each side left as margin. */
const svg = (size: number, { rounded, inset }: { rounded: boolean; inset: number }) => {
  const box = 32 * (1 - 2 * inset);
  const scale = box / 32;
  const offset = 32 * inset;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32">
  <rect width="32" height="32" rx="${rounded ? 6 : 0}" fill="${BRAND}"/>
  <g transform="translate(${offset} ${offset}) scale(${scale})" fill="none" stroke="#fff" stroke-width="2">
    <path d="M8 11l8-4 8 4v10l-8 4-8-4z" stroke-linejoin="round"/><path d="M8 11l8 4 8-4M16 15v10"/>
  </g></svg>`;
};

const icons = [
  { file: 'icon-192.png', size: 192, rounded: true, inset: 0 },
  { file: 'icon-512.png', size: 512, rounded: true, inset: 0 },
  // Maskable: full bleed, the drawing inside the central 80 % safe zone any mask keeps.
  { file: 'icon-maskable-512.png', size: 512, rounded: false, inset: 0.12 },
];

mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  const page = await browser.newPage();
  for (const { file, size, ...shape } of icons) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg(size, shape)}</body></html>`);
    const png = await page.locator('svg').screenshot({ omitBackground: true });
    writeFileSync(`${out}${file}`, png);
    console.log(`wrote ${file}`);
  }
} finally {
  await browser.close();
}
