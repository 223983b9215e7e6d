import { messages } from '@csomag/domain/messages';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signUp, type TestApp, testStore } from '../../test/harness.ts';

/**
 * The sign-in limits hold across every instance of a deployment (docs/decisions/0003): on
 * PostgreSQL two instances on one database, whose attempts count into the same windows; on
 * SQLite the single instance it runs as.
 */
let t: TestApp;
let instances: FastifyInstance[];
beforeAll(async () => {
  t = await createTestApp();
  instances = testStore === 'postgres' ? [t.app, await t.addInstance()] : [t.app];
});
afterAll(() => t.close());

/** The i-th request's instance, round robin, as a load balancer would spread them. */
const instance = (i: number): FastifyInstance => instances[i % instances.length] ?? t.app;

const login = (app: FastifyInstance, payload: { email: string; password: string }, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload, remoteAddress });

const lockedOut = { code: 'too_many_login_attempts', message: messages.tooManyLoginAttempts };

let person: SignedIn;
beforeAll(async () => {
  person = await signUp(t.app);
});
/** The person's sign-in with a wrong password, or the right one, on one instance from one address. */
const wrong = (app: FastifyInstance, ip: string, email = person.account.email) =>
  login(app, { email, password: 'rossz-jelszo' }, ip);
const right = (app: FastifyInstance, ip: string) =>
  login(app, { email: person.account.email, password: person.password }, ip);

describe(`sign-in limits on ${testStore} (${testStore === 'postgres' ? 'two instances' : 'one instance'})`, () => {
  it('locks an email + IP on every instance after 5 failures spread over them; other IPs still sign in', async () => {
    const ip = '10.31.0.1';
    for (let i = 0; i < 5; i++) expect((await wrong(instance(i), ip)).statusCode).toBe(401);
    for (const app of instances) {
      const response = await right(app, ip);
      expect(response.statusCode).toBe(429);
      expect(response.json().error).toEqual(lockedOut);
    }
    expect((await right(instance(1), '10.31.0.2')).statusCode).toBe(200);
  });

  it('counts the email in any case as one', async () => {
    const ip = '10.31.1.1';
    for (let i = 0; i < 5; i++) {
      const email = i % 2 ? person.account.email.toUpperCase() : person.account.email;
      expect((await wrong(instance(i), ip, email)).statusCode).toBe(401);
    }
    expect((await right(instance(5), ip)).statusCode).toBe(429);
  });

  it('forgets the failures of an email + IP once it signs in, on whichever instance', async () => {
    const ip = '10.31.2.1';
    for (let i = 0; i < 4; i++) expect((await wrong(instance(i), ip)).statusCode).toBe(401);
    // Signed in on the second instance: the first, which saw failures too, starts again as well.
    expect((await right(instance(1), ip)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await wrong(instance(0), ip)).statusCode).toBe(401);
    expect((await right(instance(0), ip)).statusCode).toBe(429);
  });

  it('lets at most 5 of 12 simultaneous wrong guesses through to the password check', async () => {
    const ip = '10.31.3.1';
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => wrong(instance(i), ip)));
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
  });

  it('allows 100 sign-in attempts per IP spread over the instances, then refuses the 101st on each', async () => {
    const ip = '10.31.4.1';
    // A different email each time: only the per-IP limit is in play.
    for (let i = 0; i < 100; i++) expect((await wrong(instance(i), ip, `senki${i}@example.hu`)).statusCode).toBe(401);
    for (const app of instances) {
      const response = await right(app, ip);
      expect(response.statusCode).toBe(429);
      expect(response.json().error).toEqual(lockedOut);
    }
  });
});
