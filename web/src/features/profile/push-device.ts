import { messages } from '@csomag/domain/messages';
import type { PushSubscriptionBody } from '@csomag/domain/push';

/** What this browser can do about notifications, before anything is asked of the person. */
export type PushSupport = 'unsupported' | 'denied' | 'available';

export function pushSupport(): PushSupport {
  if (typeof window === 'undefined' || !('serviceWorker' in navigator) || !('PushManager' in window)) {
    return 'unsupported';
  }
  if (!('Notification' in window)) return 'unsupported';
  return Notification.permission === 'denied' ? 'denied' : 'available';
}

/** The service worker's registration, when the app installed one (the production build does). */
async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!(await navigator.serviceWorker.getRegistration())) return undefined;
  return navigator.serviceWorker.ready;
}

/** This browser's current push subscription's endpoint, if it has one. */
export async function currentEndpoint(): Promise<string | null> {
  if (pushSupport() === 'unsupported') return null;
  const subscription = await (await registration())?.pushManager.getSubscription();
  return subscription?.endpoint ?? null;
}

/** A refusal on this side of the network, said in the catalogue's words. */
export class PushDeviceError extends Error {}

/**
 * Asks for the permission, then subscribes this browser with the server's VAPID key: what the
 * server is to be sent (PushSubscription.toJSON()). Nothing is stored until the server says so.
 */
export async function subscribeThisDevice(vapidPublicKey: string): Promise<PushSubscriptionBody> {
  if (pushSupport() === 'unsupported') throw new PushDeviceError(messages.pushUnsupported);
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushDeviceError(messages.pushPermissionDenied);
  const worker = await registration();
  if (!worker) throw new PushDeviceError(messages.pushUnsupported);
  let subscription: PushSubscription;
  try {
    subscription = await worker.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: base64urlBytes(vapidPublicKey),
    });
  } catch {
    throw new PushDeviceError(messages.pushSubscribeFailed);
  }
  const json = subscription.toJSON();
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) throw new PushDeviceError(messages.pushSubscribeFailed);
  return { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } };
}

function base64urlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Stops this browser's subscription (its device was removed from the account). */
export async function unsubscribeThisDevice(): Promise<void> {
  if (pushSupport() === 'unsupported') return;
  const subscription = await (await registration())?.pushManager.getSubscription();
  await subscription?.unsubscribe();
}
