import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('documents the parcel, tracking, profile, geocoding and live-update routes in OpenAPI', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(response.statusCode).toBe(200);
  const { paths } = response.json();
  expect(Object.keys(paths)).toEqual(
    expect.arrayContaining([
      '/api/parcels',
      '/api/parcels/{id}',
      '/api/me/sent-parcels',
      '/api/me/incoming-parcels',
      '/api/tracking/{id}',
      '/api/users/{userName}',
      '/api/geocode',
      '/api/events',
      '/api/parcels/waiting',
      '/api/me/assigned-parcels',
      '/api/parcels/{id}/pickup',
      '/api/parcels/{id}/deliver',
      '/api/parcels/{id}/handover-token',
      '/api/handover/{id}',
      '/api/parcels/{id}/handover',
      '/api/runners/me/location',
    ]),
  );
  const create = paths['/api/parcels'].post;
  expect(Object.keys(create.requestBody.content['application/json'].schema.properties)).toEqual(
    expect.arrayContaining(['senderAddress', 'receiverAddress', 'category', 'weightGrams', 'senderUser']),
  );
  expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '422', '429']));
  expect(paths['/api/me/sent-parcels'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
    expect.arrayContaining(['limit', 'cursor', 'status']),
  );
});

it('documents the back-office routes: runners, accounts, parcel edit, delete, assign and the admin map', async () => {
  const { paths } = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  expect(Object.keys(paths['/api/runners'])).toEqual(expect.arrayContaining(['get', 'post']));
  expect(Object.keys(paths['/api/runners/{userName}'])).toEqual(expect.arrayContaining(['get', 'patch', 'delete']));
  expect(Object.keys(paths['/api/parcels'])).toEqual(expect.arrayContaining(['get', 'post']));
  expect(Object.keys(paths['/api/parcels/{id}'])).toEqual(expect.arrayContaining(['get', 'patch', 'delete']));
  expect(Object.keys(paths['/api/parcels/{id}/assign'])).toEqual(['post']);
  expect(paths['/api/users'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
    expect.arrayContaining(['role', 'q', 'limit', 'cursor']),
  );
  expect(paths['/api/map/parcels'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
    expect.arrayContaining(['south', 'west', 'north', 'east', 'zoom', 'status']),
  );
  expect(paths['/api/parcels'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
    expect.arrayContaining(['status', 'runner', 'sender', 'limit', 'cursor']),
  );
});
