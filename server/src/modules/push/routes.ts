import {
  pushDeviceListSchema,
  pushDeviceParamsSchema,
  pushDeviceResponseSchema,
  pushPreferencesSchema,
  pushPreferencesUpdateSchema,
  pushSubscriptionBodySchema,
  vapidKeySchema,
} from '@csomag/domain/push';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { deviceLabel } from './device-label.ts';
import { pushGuard } from './policy.ts';
import {
  addDevice,
  assertPushEndpoint,
  getPreferences,
  listDevices,
  removeDevice,
  updatePreferences,
} from './service.ts';

export const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/push/key',
    {
      onRequest: pushGuard('readKey'),
      schema: {
        tags: ['push'],
        summary: "The server's VAPID public key, for PushManager.subscribe's applicationServerKey",
        response: { 200: vapidKeySchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async () => ({ publicKey: app.config.vapid.publicKey }),
  );

  app.get(
    '/me/push-devices',
    {
      onRequest: pushGuard('manageDevices'),
      schema: {
        tags: ['push'],
        summary: "This account's devices that get notifications",
        response: { 200: pushDeviceListSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async (request) => ({ items: await listDevices(app.store.db, signedIn(request).id) }),
  );

  app.post(
    '/me/push-devices',
    {
      onRequest: pushGuard('manageDevices'),
      schema: {
        tags: ['push'],
        summary: "Send this account's notifications to this device (its PushSubscription as JSON)",
        body: pushSubscriptionBodySchema,
        response: { 201: pushDeviceResponseSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async (request, reply) => {
      const account = signedIn(request);
      assertPushEndpoint(request.body.endpoint, app.config.pushAllowLoopback);
      const device = await addDevice(
        app.store.db,
        account.id,
        request.body,
        deviceLabel(request.headers['user-agent']),
      );
      request.log.info({ device: device.id, userName: account.user_name }, 'push device added');
      return reply.status(201).send({ device });
    },
  );

  app.delete(
    '/me/push-devices/:id',
    {
      onRequest: pushGuard('manageDevices'),
      schema: {
        tags: ['push'],
        summary: 'Stop notifications to one of my devices; answers the devices left',
        params: pushDeviceParamsSchema,
        response: { 200: pushDeviceListSchema, ...errorResponses(...GUARD_CODES, 'push_device_not_found') },
      },
    },
    async (request) => {
      const account = signedIn(request);
      await removeDevice(app.store.db, account.id, request.params.id);
      return { items: await listDevices(app.store.db, account.id) };
    },
  );

  app.get(
    '/me/push-preferences',
    {
      onRequest: pushGuard('managePreferences'),
      schema: {
        tags: ['push'],
        summary: 'Which kinds of notification I get',
        response: { 200: pushPreferencesSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async (request) => getPreferences(app.store.db, signedIn(request).id),
  );

  app.patch(
    '/me/push-preferences',
    {
      onRequest: pushGuard('managePreferences'),
      schema: {
        tags: ['push'],
        summary: 'Switch kinds of notification on or off; the others stay as they are',
        body: pushPreferencesUpdateSchema,
        response: { 200: pushPreferencesSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async (request) => updatePreferences(app.store.db, signedIn(request).id, request.body),
  );
};
