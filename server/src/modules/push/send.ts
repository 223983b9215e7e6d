import type { PushMessage } from '@csomag/domain/push';
import webpush from 'web-push';
import type { VapidDetails } from '../../config.ts';

/** A day: a phone that is off for the night still gets the news in the morning, not next week. */
export const PUSH_TTL_SECONDS = 86_400;

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * What became of one push: `delivered` (the push service took it), `gone` (404/410: the browser
 * unsubscribed, forget the device), `failed` (any other answer or no connection), `timeout`.
 */
export type PushOutcome = 'delivered' | 'gone' | 'failed' | 'timeout';

/**
 * Encrypts the message for the device (aes128gcm, RFC 8291) and signs the request with VAPID
 * (RFC 8292) through web-push, and sends it with fetch: a hanging push service is cut off after
 * `timeoutMs`, and `signal` (the notifier closing) cuts it off at once.
 */
export async function sendPush(
  target: PushTarget,
  message: PushMessage,
  vapid: VapidDetails,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ outcome: PushOutcome; status?: number }> {
  const details = webpush.generateRequestDetails(
    { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
    JSON.stringify(message),
    {
      vapidDetails: vapid,
      TTL: PUSH_TTL_SECONDS,
      urgency: 'normal',
      // A newer status of the same parcel replaces one the device has not fetched yet.
      topic: message.parcelId,
      contentEncoding: 'aes128gcm',
    },
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(details.headers)) {
    // fetch counts the body itself.
    if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
  }
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(details.endpoint, {
      method: 'POST',
      headers,
      body: details.body as Buffer,
      // A push service answers; it does not send us elsewhere.
      redirect: 'manual',
      signal: AbortSignal.any([timeout, signal]),
    });
    await response.body?.cancel().catch(() => {});
    if (response.status === 404 || response.status === 410) return { outcome: 'gone', status: response.status };
    return { outcome: response.ok ? 'delivered' : 'failed', status: response.status };
  } catch {
    return { outcome: timeout.aborted ? 'timeout' : 'failed' };
  }
}
