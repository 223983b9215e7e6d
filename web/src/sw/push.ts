/// <reference lib="webworker" />
/**
 * The service worker's Web Push handlers (docs/decisions/0018): a push becomes a notification —
 * the kind's title, the status sentence, tagged with the parcel so a newer status replaces an
 * older one — and a click brings up the page it points to. Imported by index.ts.
 */

import { isLanguage } from '@csomag/domain/language';
import { messages } from '@csomag/domain/messages';
import { isPushKind, type PushMessage, pushKindTitles } from '@csomag/domain/push-kinds';

declare const self: ServiceWorkerGlobalScope;

interface NotificationData {
  url: string;
}

/** Only a path on this site: a payload can never send a click elsewhere. */
function ownPath(url: unknown): string {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : '/';
}

function readPush(event: PushEvent): Partial<PushMessage> {
  try {
    const value = event.data?.json() as Partial<PushMessage> | null;
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

self.addEventListener('push', (event) => {
  const message = readPush(event);
  // The server says the title in its recipient's language (issue 30); an older payload has none.
  const title =
    typeof message.title === 'string' && message.title !== ''
      ? message.title
      : isPushKind(message.type)
        ? pushKindTitles[message.type]
        : messages.pushNotificationTitle;
  const data: NotificationData = { url: ownPath(message.url) };
  // Every push shows a notification: browsers take the permission away from sites whose pushes stay silent.
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.status === 'string' ? message.status : '',
      ...(typeof message.parcelId === 'string' ? { tag: message.parcelId } : {}),
      data,
      lang: isLanguage(message.lang) ? message.lang : 'hu',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(ownPath((event.notification.data as NotificationData | null)?.url), self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => client.url === url);
      if (open) {
        await open.focus();
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
