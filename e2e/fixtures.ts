import { randomInt } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Account } from '@csomag/domain/account';
import {
  type APIRequestContext,
  type Browser,
  test as base,
  expect,
  type Locator,
  type Page,
  type Request,
  type Route,
} from '@playwright/test';
import { baseURL, e2eAdmin } from './playwright.config.ts';

let counter = 0;
export function newPerson(role: 'user' | 'runner' = 'user', overrides: Partial<Record<string, string>> = {}) {
  counter += 1;
  const tag = `${Date.now().toString(36)}${process.pid}${counter}`;
  return {
    role,
    name: role === 'user' ? `Kiss Ilona ${counter}` : `Nagy Bence ${counter}`,
    userName: `${role}_${tag}`,
    email: `${role}.${tag}@example.hu`,
    password: 'jelszo-123',
    phoneNumber: '+36 30 555 1234',
    address: '1052 Budapest, Váci utca 12',
    ...overrides,
  };
}
export type Person = ReturnType<typeof newPerson>;

/** Registers through the API; the context's cookie jar then holds the session. */
export async function registerViaApi(request: APIRequestContext, person: Person): Promise<Account> {
  const response = await request.post('/api/auth/register', { data: person });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).account;
}

export async function signInViaApi(request: APIRequestContext, email: string, password: string): Promise<Account> {
  const response = await request.post('/api/auth/login', { data: { email, password } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).account;
}

/** Types a person into the six labelled fields of a registration form. */
export async function fillAccountForm(page: Page, person: Person) {
  for (const [label, value] of [
    ['Név', person.name],
    ['Felhasználónév', person.userName],
    ['Email', person.email],
    ['Jelszó', person.password],
    ['Telefonszám', person.phoneNumber],
    ['Cím', person.address],
  ] as const) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
}

/** Signs in through the real form, as a person would. */
export async function signInWithForm(page: Page, email: string, password: string) {
  await page.goto('/Bejelentkezes');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Jelszó').fill(password);
  await page.getByRole('button', { name: 'Bejelentkezés' }).click();
}

export { e2eAdmin };

/** Each test is its own client address (the server trusts the proxy header in e2e). */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern
  extraHTTPHeaders: async ({}, use) => {
    await use({ 'x-forwarded-for': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` });
  },
});
export { expect };

export interface NewParcel {
  senderAddress: string;
  receiverAddress: string;
  category: string;
  weightGrams: number;
  /** The receiver's email, for the mail with their link (issue 29). */
  receiverEmail?: string;
}

export const budapestToSzeged: NewParcel = {
  senderAddress: '1052 Budapest, Váci utca 12',
  receiverAddress: '6720 Szeged, Kárász utca 5',
  category: 'Könyv',
  weightGrams: 850,
};

/** Sends a parcel through the API as the signed-in user of this request context. */
export async function sendParcelViaApi(request: APIRequestContext, parcel: Partial<NewParcel> = {}) {
  const response = await request.post('/api/parcels', { data: { ...budapestToSzeged, ...parcel } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as NewParcel & { id: string; status: string; senderUser: string };
}

/** A Leaflet marker by its SPEC label (title and alt text). */
export const marker = (page: Page, title: string) => page.locator(`.leaflet-marker-icon[title="${title}"]`);

/**
 * Waits until `target` has stayed where it is for a few tenths of a second. A popup opened on a map
 * can move more than once (Leaflet pans to fit it, then again once its content is laid out), with
 * still frames between: a click between two moves lands on the map and closes it, which
 * Playwright's own two-frame stability check does not rule out.
 */
export async function settled(target: Locator) {
  let last = '';
  let still = 0;
  await expect
    .poll(
      async () => {
        const box = JSON.stringify(await target.boundingBox());
        still = box === last ? still + 1 : 0;
        last = box;
        return still;
      },
      { intervals: [100] },
    )
    .toBeGreaterThanOrEqual(3);
}

/** Drags a map pin by its tip, as a finger would, `dx`/`dy` pixels away. */
export async function dragMarker(page: Page, pin: Locator, dx: number, dy: number) {
  // The mouse acts only inside the viewport: a pin below the fold (a tall card) is brought up first.
  await pin.scrollIntoViewIfNeeded();
  const box = await pin.boundingBox();
  if (!box) throw new Error('the pin is not on the map');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height - 4);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + dx, box.y + box.height - 4 + dy, { steps: 8 });
  await page.mouse.up();
}

/** A parcel sent by a fresh user in its own browser context (closed again). */
export async function parcelFromNewSender(browser: Browser, parcel: Partial<NewParcel> & Record<string, unknown> = {}) {
  const context = await browser.newContext({ baseURL });
  await registerViaApi(context.request, newPerson('user'));
  const created = await sendParcelViaApi(context.request, parcel);
  await context.close();
  return created as typeof created & {
    senderCoordinates: { lat: number; lng: number };
    receiverCoordinates: { lat: number; lng: number };
  };
}

/** A signed-in user on a phone of their own (a context of its own), living at `address` if given. */
export async function personContext(browser: Browser, address?: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const account = await registerViaApi(context.request, newPerson('user', address ? { address } : {}));
  return { context, account, page: await context.newPage() };
}

/** Pins placed by the sender on two doors: both ends known, so delivery by position is allowed. */
export const budapestDoor = { lat: 47.4925, lng: 19.0513 };
export const szegedDoor = { lat: 46.2517, lng: 20.1469 };

/**
 * A parcel from a Budapest door to a receiver's Szeged door (the receiver signed in on a phone of
 * their own, their address the destination), picked up by a runner standing at that door.
 */
export async function carriedToTheDoor(browser: Browser, extra: Partial<NewParcel> = {}) {
  const receiverAddress = `6720 Szeged, Kárász utca ${randomInt(10, 910)}.`;
  const sender = await personContext(browser);
  const parcel = await sendParcelViaApi(sender.context.request, {
    receiverAddress,
    senderCoordinates: budapestDoor,
    receiverCoordinates: szegedDoor,
    ...extra,
  } as Partial<NewParcel>);
  const receiver = await personContext(browser, receiverAddress);
  const runner = await runnerContext(browser, { latitude: szegedDoor.lat, longitude: szegedDoor.lng, accuracy: 5 });
  await runner.page.setViewportSize({ width: 390, height: 844 });
  expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
  return { sender, parcel, receiver, runner, receiverAddress };
}

/**
 * Requests held back by a route until the test lets them go, to force an order a slow network
 * would make; `asked` once the first has come. `only` picks the requests held (the rest pass).
 */
export function holdBack(only: (request: Request) => boolean = () => true) {
  let release = () => {};
  let ask = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const asked = new Promise<void>((resolve) => {
    ask = resolve;
  });
  const handler = async (route: Route) => {
    if (!only(route.request())) return route.fallback();
    ask();
    await released;
    await route.continue();
  };
  return { handler, asked, release };
}

/**
 * A toast, watched for from before the action that brings it: it lasts 3.5 s (SPEC §9), and on a
 * loaded machine the test can come to look only after it has gone. Start it, act, then await it.
 */
export function toastShown(page: Page, text: string) {
  return page.getByRole('alert').filter({ hasText: text }).waitFor();
}

/** A parcel's card in a list. */
export const parcelCard = (page: Page, parcelId: string) => page.getByRole('article', { name: `Csomag ${parcelId}` });

/** A runner signed in within a new context that may read its geolocation (set with setGeolocation). */
export async function runnerContext(browser: Browser, at?: { latitude: number; longitude: number; accuracy?: number }) {
  const context = await browser.newContext({
    baseURL,
    permissions: ['geolocation'],
    ...(at ? { geolocation: { accuracy: 5, ...at } } : {}),
    extraHTTPHeaders: { 'x-forwarded-for': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
  });
  const person = newPerson('runner');
  const account = await registerViaApi(context.request, person);
  const page = await context.newPage();
  const here = at && { accuracy: 5, ...at };
  /**
   * The same position reported again, as a phone standing there would: the app asks for fixes at
   * most 5–10 s old (geolocation.ts), and Chromium's emulation hands a new one only when set — on a
   * loaded machine signing up, or a page's load before its delivery, takes longer than that.
   */
  const stillHere = async () => {
    if (here) await context.setGeolocation(here);
  };
  await stillHere();
  return { context, account, person, page, stillHere };
}

/** Reads the QR code shown by `locator` from a screenshot, as a phone camera would. */
export async function decodeQr(locator: Locator): Promise<string> {
  const { PNG } = await import('pngjs');
  const jsQR = (await import('jsqr')).default;
  // A toast that has just flown in may lie over the code; a person would wait for it to go.
  const png = PNG.sync.read(await locator.screenshot({ style: '.Toastify { display: none !important; }' }));
  // SPEC's 128 px code is under 3 px a module: jsQR's local thresholds sometimes miss it at that
  // size, as a camera held closer would not, so it is read enlarged too (each pixel repeated).
  for (const scale of [1, 2, 3]) {
    const width = png.width * scale;
    const height = png.height * scale;
    const pixels = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const from = (Math.floor(y / scale) * png.width + Math.floor(x / scale)) * 4;
        pixels.set(png.data.subarray(from, from + 4), (y * width + x) * 4);
      }
    }
    const code = jsQR(pixels, width, height);
    if (code) return code.data;
  }
  throw new Error('no QR code could be read from the screenshot');
}

/** Moves `from` by `metres` to the north. */
export const metresNorth = (from: { lat: number; lng: number }, metres: number) => ({
  lat: from.lat + metres / 111_195,
  lng: from.lng,
});

/**
 * A parcel's card in a server-paged list, loading further pages until it shows: the e2e suite
 * shares one database, so other tests' parcels may come first.
 */
export async function revealCard(page: Page, parcelId: string) {
  const card = page.getByRole('article', { name: `Csomag ${parcelId}` });
  const more = page.getByRole('button', { name: 'Továbbiak betöltése' });
  // The list's first page is in when the card or the button for more shows. Not any article: a
  // relay offer's, above the list, may show first — the button was then not there yet, and the
  // search ended before it began (a CI run's failure).
  await expect(card.or(more).first()).toBeVisible();
  const loading = page.getByRole('button', { name: 'Továbbiak betöltése', disabled: true });
  for (let i = 0; i < 50 && !(await card.isVisible()); i++) {
    if (!(await more.isVisible())) break;
    // The next page is in once it is answered and the button no longer says it is loading. Looked
    // for sooner (the button not yet disabled), the card seemed absent, and a second click waited
    // on a button gone for good after the last page (a CI run's failure).
    const answered = page.waitForResponse((response) => response.url().includes('cursor='));
    await more.click();
    await answered;
    await expect(loading).toHaveCount(0);
  }
  await expect(card).toBeVisible();
  return card;
}

/** WCAG 2 A/AA checks of the page as it is now (map tiles excluded: they are third-party imagery). */
export async function expectAccessible(page: Page) {
  // A toast still flying in is half transparent: check it as it will be read, once it has arrived.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => {
          const target = (animation.effect as KeyframeEffect | null)?.target;
          return target?.closest('.Toastify') && !target.closest('.Toastify__progress-bar--wrp');
        })
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa'])
    .exclude('.leaflet-tile-pane')
    .analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
