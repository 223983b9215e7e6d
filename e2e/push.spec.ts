import { paths } from '@csomag/domain/paths';
import { pushMessage } from '@csomag/domain/push-kinds';
import { type FakePushService, startFakePushService } from '../server/src/test/push-service.ts';
import {
  expect,
  expectAccessible,
  newPerson,
  registerViaApi,
  runnerContext,
  sendParcelViaApi,
  test,
} from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

/**
 * Push notifications in Chromium (docs/decisions/0018). Headless Chromium has no push service, so
 * PushManager.subscribe is replaced before the app loads with one that answers a subscription
 * whose endpoint is a fake push service this test runs on 127.0.0.1 (the server accepts loopback
 * endpoints in e2e: PUSH_ALLOW_LOOPBACK) and whose keys the test made. What the server sends there
 * is decrypted with those keys, and handed to the app's service worker through the DevTools
 * protocol, as a push service would; the notification it shows is read back from the page.
 */

let service: FakePushService;
test.beforeAll(async () => {
  service = await startFakePushService();
});
test.afterAll(async () => {
  await service.close();
});

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  url: string | undefined;
}

test('opts this device in from the profile, lists it, and shows the parcel news it is pushed', async ({
  page,
  context,
  browser,
}) => {
  const device = service.device();
  await context.grantPermissions(['notifications'], { origin: baseURL });
  await page.addInitScript((subscription) => {
    const bytes = (text: string) =>
      Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer;
    const fake = {
      endpoint: subscription.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: null },
      getKey: (name: string) => bytes(name === 'p256dh' ? subscription.keys.p256dh : subscription.keys.auth),
      toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys }),
      unsubscribe: async () => {
        localStorage.removeItem('e2e.pushSubscribed');
        return true;
      },
    };
    PushManager.prototype.subscribe = async () => {
      localStorage.setItem('e2e.pushSubscribed', '1');
      return fake as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async () =>
      localStorage.getItem('e2e.pushSubscribed') ? (fake as unknown as PushSubscription) : null;
  }, device.subscription);

  const sender = newPerson('user');
  await registerViaApi(page.request, sender);
  await page.goto(paths.userProfile(sender.userName));
  const section = page.getByRole('region', { name: 'Értesítések', exact: true });
  await expect(section).toBeVisible();
  await expect(section.getByText('Még egy eszközön sem kapcsoltad be az értesítéseket.')).toBeVisible();
  // The service worker must be in charge before a subscription can be made.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  await section.getByRole('button', { name: 'Értesítések bekapcsolása ezen az eszközön' }).click();
  await expect(page.getByText('Ezen az eszközön bekapcsoltad az értesítéseket.')).toBeVisible();
  await expect(section.getByText('Ez az eszköz értesítéseket kap.')).toBeVisible();
  const listed = await (await page.request.get('/api/me/push-devices')).json();
  expect(listed.items).toHaveLength(1);
  const label: string = listed.items[0].label ?? 'Ismeretlen eszköz';
  await expect(section.getByRole('listitem').filter({ hasText: label })).toContainText('(ez az eszköz)');
  await expect(section.getByRole('button', { name: `${label} eltávolítása` })).toBeVisible();
  // A switch per kind a sender or receiver gets (issue 28's failed attempts, returns, drop points and losses too), each on.
  await expect(section.getByRole('switch')).toHaveCount(13);
  await expect(section.getByRole('switch', { name: 'Elküldött küldeményem úton van' })).toBeChecked();
  await expectAccessible(page);

  // A runner picks up this person's parcel: the server pushes the news to the fake push service.
  const parcel = await sendParcelViaApi(page.request);
  const runner = await runnerContext(browser);
  expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
  await runner.context.close();
  const [push] = await service.waitForPushes(device, 1);
  const message = device.open(push?.body as Buffer);
  expect(message).toEqual(pushMessage('sent_picked_up', parcel.id));

  // Delivered to the app's service worker as the push service would, it shows the notification.
  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${baseURL}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: baseURL,
    registrationId: await registrationId,
    data: JSON.stringify(message),
  });
  const shown = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map(
        (n): ShownNotification => ({ title: n.title, body: n.body, tag: n.tag, url: n.data?.url }),
      );
    });
  // Chromium starts the worker and fetches the icon before it shows the notification: slow when
  // the machine is busy with the rest of the suite.
  await expect
    .poll(shown, { timeout: 30_000 })
    .toEqual([
      { title: 'Futár úton a csomagoddal', body: message.status, tag: parcel.id, url: paths.tracking(parcel.id) },
    ]);

  // Switching a kind off is what the server confirmed.
  await section.getByRole('switch', { name: 'Elküldött küldeményemet leadták' }).click();
  await expect(page.getByText('Az értesítési beállításaidat elmentettük.')).toBeVisible();
  await expect(section.getByRole('switch', { name: 'Elküldött küldeményemet leadták' })).not.toBeChecked();
  expect((await (await page.request.get('/api/me/push-preferences')).json()).kinds.sent_delivered).toBe(false);

  // Removing the device leaves none.
  await section.getByRole('button', { name: `${label} eltávolítása` }).click();
  await expect(page.getByText('Az eszköz nem kap több értesítést.')).toBeVisible();
  await expect(section.getByText('Még egy eszközön sem kapcsoltad be az értesítéseket.')).toBeVisible();
  expect((await (await page.request.get('/api/me/push-devices')).json()).items).toEqual([]);
});
