import { z } from 'zod';
import { LANGUAGES } from './language.ts';
import { messages } from './messages.ts';
import { PUSH_KINDS, type PushKind, type PushMessage } from './push-kinds.ts';

export type { PushKind, PushMessage } from './push-kinds.ts';

/** The payload the service worker receives, as the tests read it back (push-kinds.ts builds it). */
export const pushMessageSchema = z.object({
  type: z.enum(PUSH_KINDS),
  parcelId: z.string(),
  title: z.string(),
  status: z.string(),
  lang: z.enum(LANGUAGES),
  url: z.string(),
}) satisfies z.ZodType<PushMessage>;

/** An uncompressed P-256 point (65 bytes) and a 16-byte secret, as PushSubscription.toJSON() gives them. */
const P256DH_BYTES = 65;
const AUTH_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

const base64urlBytes = (text: string) => {
  const unpadded = text.replace(/=+$/, '');
  return unpadded.length % 4 === 1 ? -1 : Math.floor((unpadded.length * 3) / 4);
};

const pushKeyField = (bytes: number) =>
  z
    .string({ error: messages.pushKeyInvalid })
    // A key's text is at most 4/3 of its bytes plus padding; anything longer is refused unread.
    .max(Math.ceil(bytes / 3) * 4, { error: messages.pushKeyInvalid })
    .regex(BASE64URL, { error: messages.pushKeyInvalid })
    .refine((text) => base64urlBytes(text) === bytes, { error: messages.pushKeyInvalid });

export const PUSH_ENDPOINT_MAX_LENGTH = 2048;

/** What the browser's PushSubscription.toJSON() gives; the endpoint's scheme is checked by the server. */
export const pushSubscriptionBodySchema = z.object({
  endpoint: z
    .string({ error: messages.pushEndpointInvalid })
    .max(PUSH_ENDPOINT_MAX_LENGTH, { error: messages.pushEndpointInvalid })
    .pipe(z.url({ error: messages.pushEndpointInvalid })),
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      p256dh: pushKeyField(P256DH_BYTES),
      auth: pushKeyField(AUTH_BYTES),
    },
    { error: messages.pushKeyInvalid },
  ),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBodySchema>;

/** One device that gets this account's notifications: never its endpoint or keys. */
export const pushDeviceSchema = z.object({
  id: z.number().int(),
  /** Browser and system read from the User-Agent when it was added; null when unknown. */
  label: z.string().nullable(),
  createdAt: z.string(),
});
export type PushDevice = z.infer<typeof pushDeviceSchema>;

export const pushDeviceResponseSchema = z.object({ device: pushDeviceSchema });
export const pushDeviceListSchema = z.object({ items: z.array(pushDeviceSchema) });

export const pushDeviceParamsSchema = z.object({ id: z.coerce.number().int().positive() });

export const vapidKeySchema = z.object({ publicKey: z.string() });

/** Every kind with whether it is on (on unless switched off). */
export const pushPreferencesSchema = z.object({
  kinds: z.object(Object.fromEntries(PUSH_KINDS.map((kind) => [kind, z.boolean()])) as Record<PushKind, z.ZodBoolean>),
});
export type PushPreferences = z.infer<typeof pushPreferencesSchema>;

/** Switches some kinds on or off; the others stay as they are. */
export const pushPreferencesUpdateSchema = z.object({
  kinds: z
    .object(
      Object.fromEntries(PUSH_KINDS.map((kind) => [kind, z.boolean().optional()])) as Record<
        PushKind,
        z.ZodOptional<z.ZodBoolean>
      >,
    )
    .strict(),
});
export type PushPreferencesUpdate = z.infer<typeof pushPreferencesUpdateSchema>;
