import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '@csomag/domain/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
beforeAll(async () => {
  t = await createTestApp();
  paths = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths;
});
afterAll(() => t.close());

/** The error codes a route documents, by status. */
function documentedCodes(path: string, method: string): Record<string, string[]> {
  const responses = paths[path]?.[method]?.responses ?? {};
  return Object.fromEntries(
    Object.entries(responses)
      .filter(([status]) => Number(status) >= 400)
      .map(([status, response]) => {
        const schema = (response as { content?: Record<string, { schema: unknown }> }).content?.['application/json']
          ?.schema as { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } } | undefined;
        return [status, schema?.properties?.error?.properties?.code?.enum ?? []];
      }),
  );
}

describe('the OpenAPI document lists each route’s error codes', () => {
  it('names the refusals of a pickup, a delivery and a runner deletion under their statuses', () => {
    expect(documentedCodes('/api/parcels/{id}/pickup', 'post')).toMatchObject({
      '401': ['sign_in_required'],
      '403': expect.arrayContaining(['forbidden', 'cross_origin']),
      '404': ['parcel_not_found'],
      '409': expect.arrayContaining(['parcel_taken', 'parcel_already_delivered']),
    });
    expect(documentedCodes('/api/parcels/{id}/deliver', 'post')['422']).toEqual(
      expect.arrayContaining(['too_far', 'destination_imprecise']),
    );
    expect(documentedCodes('/api/runners/{userName}', 'delete')['409']).toEqual(['runner_carries_parcels']);
  });

  it('documents every error response of every route with known codes of that status', () => {
    let routes = 0;
    for (const [path, methods] of Object.entries(paths)) {
      for (const method of Object.keys(methods)) {
        routes += 1;
        for (const [status, codes] of Object.entries(documentedCodes(path, method))) {
          expect(codes.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const code of codes) {
            expect(ERROR_CODES, `${method} ${path}`).toContain(code);
            expect(String(ERROR_STATUS[code as ErrorCode]), `${method} ${path} ${code}`).toBe(status);
          }
        }
      }
    }
    expect(routes).toBeGreaterThan(25);
  });
});
