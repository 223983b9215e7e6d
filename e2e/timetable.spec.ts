import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { budapestDay } from '@csomag/domain/format';
import { writeGtfsZip } from '../server/src/modules/timetable/gtfs/write-gtfs.ts';
import { szegedFeed, szegedStops } from '../server/src/test/gtfs-feeds.ts';
import {
  e2eAdmin,
  expect,
  expectAccessible,
  metresNorth,
  parcelFromNewSender,
  runnerContext,
  signInWithForm,
  test,
} from './fixtures.ts';
import { e2eDataDir } from './playwright.config.ts';

// Issue 26: with an operator's timetable loaded, a runner's trip by public transport shows the
// tram it takes and when it arrives, and a parcel at a stop on the way with the minutes it adds;
// the back office sees which feed is in use and until when. Szeged's tram 1, nowhere near the
// other walks' trips, round the clock every five minutes.

const root = fileURLToPath(new URL('..', import.meta.url));
const DAY_MS = 86_400_000;
const day = (offset: number) => budapestDay(Date.now() + offset * DAY_MS);

test.describe.configure({ mode: 'serial' });

test.beforeAll(() => {
  const folder = mkdtempSync(join(tmpdir(), 'csomag-e2e-gtfs-'));
  try {
    const file = join(folder, 'szeged.zip');
    writeGtfsZip(file, szegedFeed({ start: day(-1), end: day(30) }));
    // As an operator runs it, against the running server's data folder.
    execFileSync(process.execPath, ['--import', 'tsx', 'server/src/scripts/gtfs-import.ts', file], {
      cwd: root,
      env: { ...process.env, DATA_DIR: e2eDataDir, LOG_LEVEL: 'warn' },
      stdio: 'pipe',
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('a tram trip in Szeged shows the tram, its times, the arrival and the parcel at a stop on the way', async ({
  browser,
}) => {
  const tag = String(Date.now() % 100_000);
  // Picked up by the tram's middle stop, delivered by its last: on the way.
  const parcel = await parcelFromNewSender(browser, {
    senderAddress: `6720 Szeged, Aradi vértanúk tere ${tag}`,
    receiverAddress: `6720 Szeged, Széchenyi tér ${tag}`,
    senderCoordinates: metresNorth(szegedStops.aradi, 30),
    receiverCoordinates: metresNorth(szegedStops.szechenyi, -30),
    category: 'Könyv',
    weightGrams: 640,
  });
  const start = metresNorth(szegedStops.station, -60);
  const runner = await runnerContext(browser, { latitude: start.lat, longitude: start.lng });
  const { page } = runner;

  await page.goto('/FutarUtvonal');
  await runner.stillHere();
  const from = page.getByRole('group', { name: 'Honnan indulsz?' });
  await from.getByRole('radio', { name: 'Jelenlegi helyzetem' }).check();
  await expect(from.getByText('A jelenlegi helyzetedből indulunk.')).toBeVisible();
  const to = page.getByRole('group', { name: 'Hova mész?' });
  await to.getByRole('radio', { name: 'Cím' }).check();
  // The built-in data places Szeged at its centre, a few steps from the tram's last stop.
  await to.getByLabel('Érkezés címe').fill('6720 Szeged, Széchenyi tér 1.');
  await expect(to.getByText(/^Megtalált hely:/)).toBeVisible();
  await page.getByRole('group', { name: 'Közlekedési mód' }).getByRole('radio', { name: 'Tömegközlekedés' }).check();

  const matches = page.getByRole('region', { name: 'Útba eső csomagok', exact: true });
  // The server notices the new import within a second of being asked: search until it answers by it.
  await expect(async () => {
    await page.getByRole('button', { name: 'Útba eső csomagok keresése' }).click();
    await expect(
      matches.getByText(/^Menetrend szerint az út kitérő nélkül \d+ perc, érkezés \d{1,2}:\d{2}\.$/),
    ).toBeVisible({
      timeout: 2000,
    });
  }).toPass({ timeout: 20_000 });

  const legs = matches.getByRole('list', { name: 'Az út szakaszai' });
  await expect(legs.getByRole('listitem').first()).toHaveText(/^gyalog \d+ perc$/);
  await expect(
    legs.getByText(/^1 Indóház tér \d{1,2}:\d{2} → Széchenyi tér \d{1,2}:\d{2} \(Szeged, Széchenyi tér felé\)$/),
  ).toBeVisible();
  const card = matches.getByRole('article', { name: `Csomag ${parcel.id}` });
  await expect(card).toBeVisible();
  // Off at Aradi vértanúk tere, the parcel and back, the next tram on: one headway more.
  await expect(card.getByText(/^\+\d+ perc$/)).toBeVisible();
  // The map draws the tram's stops, not a straight line: the trip's ends and the parcel's pins.
  await expect(page.locator('.leaflet-marker-icon[title="Indulás"]')).toHaveCount(1);
  await expect(page.locator(`.leaflet-marker-icon[title="Felvétel: ${parcel.senderAddress}"]`)).toHaveCount(1);
  await expectAccessible(page);
  await runner.context.close();
});

test('the back office sees the feed in use and until when it is valid', async ({ page }) => {
  await signInWithForm(page, e2eAdmin.email, e2eAdmin.password);
  await page.getByRole('link', { name: 'Menetrendek' }).first().click();
  await expect(page).toHaveURL('/SaMenetrendek');
  const feed = page.getByRole('article', { name: 'szeged.zip' });
  await expect(feed).toContainText('SZKT');
  await expect(feed).toContainText(`${day(-1)} – ${day(30)}`);
  await expect(feed).toContainText('3 megálló, 1 vonal');
  await expect(feed.getByText('Lejárt')).toHaveCount(0);
});
