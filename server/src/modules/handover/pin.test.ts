import { HANDOVER_PIN_MAX_TRIES } from '@csomag/domain/handover-pin';
import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cast, carriedFor, signUpCast } from '../../test/cast.ts';
import { storedParcel } from '../../test/delivery.ts';
import { createTestApp, requestAs, type SignedIn, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { readChain, verifyChain } from '../relay/chain.ts';

/** The handover PIN (issue 28): a code only the person at the door is shown, per leg, a few tries. */
let t: TestApp;
let cast: Cast;
let admin: SignedIn;
let sender: SignedIn;
let receiver: SignedIn;
let runner: SignedIn;
let otherRunner: SignedIn;
let otherUser: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  cast = await signUpCast(t.app);
  ({ admin, sender, receiver, runner, otherRunner, otherUser } = cast);
});
afterAll(() => t.close());

const carried = () => carriedFor(t.app, cast);
const pinOf = (who: SignedIn | null, parcelId: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/parcels/${parcelId}/handover-pin`,
    ...(who ? { headers: { cookie: who.cookie } } : {}),
  });
const handOver = (who: SignedIn | null, parcelId: string, pin: unknown) =>
  who
    ? requestAs(t.app, who, 'POST', `/api/parcels/${parcelId}/pin-handover`, { pin })
    : t.app.inject({ method: 'POST', url: `/api/parcels/${parcelId}/pin-handover`, payload: { pin } });
/** Another code of the same length: wrong by construction. */
const wrong = (pin: string) => String((Number(pin) + 1) % 1_000_000).padStart(6, '0');

describe('GET /api/parcels/:id/handover-pin', () => {
  it('shows the code to the receiver only, a new one for every leg', async () => {
    const parcel = await carried();
    const shown = await pinOf(receiver, parcel.id);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toEqual({ pin: expect.stringMatching(/^[0-9]{6}$/), for: 'receiver' });
    expect(shown.headers['cache-control']).toBe('private, no-store');
    expect((await pinOf(receiver, parcel.id)).json().pin).toBe(shown.json().pin);
    const notTheirs = await pinOf(sender, parcel.id);
    expect(notTheirs.statusCode).toBe(403);
    expect(notTheirs.json().error.message).toBe(messages.handoverPinNotYours);
    for (const [who, status] of [
      [runner, 403],
      [otherUser, 403],
      [admin, 403],
      [null, 401],
    ] as const) {
      expect((await pinOf(who, parcel.id)).statusCode).toBe(status);
    }
    // Handed to another runner: a new leg, a new code.
    const link = await requestAs(t.app, runner, 'POST', `/api/parcels/${parcel.id}/relay-token`);
    const token = new URL(link.json().url).searchParams.get('token');
    expect((await requestAs(t.app, otherRunner, 'POST', `/api/parcels/${parcel.id}/relay`, { token })).statusCode).toBe(
      200,
    );
    expect((await pinOf(receiver, parcel.id)).json().pin).not.toBe(shown.json().pin);
  });

  it('is the sender’s once the parcel is on its way back, and nobody’s once it is waiting', async () => {
    const parcel = await carried();
    await requestAs(t.app, runner, 'POST', `/api/parcels/${parcel.id}/return`, { reason: 'Nem találom a címet' });
    expect((await pinOf(sender, parcel.id)).json()).toMatchObject({ for: 'sender' });
    expect((await pinOf(receiver, parcel.id)).statusCode).toBe(403);
    const waiting = await sendParcel(t.app, sender.cookie, { receiverAddress: receiver.account.address });
    const none = await pinOf(receiver, waiting.id);
    expect(none.statusCode).toBe(409);
    expect(none.json().error.message).toBe(messages.handoverPinNotNow);
  });
});

describe('POST /api/parcels/:id/pin-handover', () => {
  it('delivers with the receiver’s code, recorded as their confirmation; the used code is refused', async () => {
    const parcel = await carried();
    const { pin } = (await pinOf(receiver, parcel.id)).json();
    const response = await handOver(runner, parcel.id, pin);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: 'delivered', state: 'delivered' });
    const chain = await readChain(t.store.db, parcel.id);
    expect(chain.at(-1)).toMatchObject({ kind: 'handed_over_pin', how: 'receiver_pin', to_kind: 'receiver' });
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
    const again = await handOver(runner, parcel.id, pin);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('parcel_already_delivered');
  });

  it('returns a parcel on its way back with the sender’s code', async () => {
    const parcel = await carried();
    await requestAs(t.app, runner, 'POST', `/api/parcels/${parcel.id}/return`, { reason: 'Nem találom a címet' });
    const { pin } = (await pinOf(sender, parcel.id)).json();
    const response = await handOver(runner, parcel.id, pin);
    expect(response.json()).toMatchObject({ status: 'returned' });
    expect((await readChain(t.store.db, parcel.id)).at(-1)).toMatchObject({ kind: 'returned', how: 'sender_pin' });
  });

  it(`says how many tries are left, locks after ${HANDOVER_PIN_MAX_TRIES}, and then refuses even the right code`, async () => {
    const parcel = await carried();
    const { pin } = (await pinOf(receiver, parcel.id)).json();
    const before = await storedParcel(t.app, parcel.id);
    for (let left = HANDOVER_PIN_MAX_TRIES - 1; left >= 1; left--) {
      const response = await handOver(runner, parcel.id, wrong(pin));
      expect(response.statusCode).toBe(422);
      expect(response.json().error).toEqual({ code: 'handover_pin_wrong', message: messages.handoverPinWrong(left) });
    }
    for (const code of [wrong(pin), pin]) {
      const locked = await handOver(runner, parcel.id, code);
      expect(locked.statusCode).toBe(429);
      expect(locked.json().error).toEqual({ code: 'handover_pin_locked', message: messages.handoverPinLocked });
    }
    expect(await storedParcel(t.app, parcel.id)).toEqual(before);
  });

  it('counts concurrent guesses: no more than the allowed tries are ever checked', async () => {
    const parcel = await carried();
    const { pin } = (await pinOf(receiver, parcel.id)).json();
    const answers = await Promise.all(Array.from({ length: 20 }, () => handOver(runner, parcel.id, wrong(pin))));
    const codes = answers.map((answer) => answer.json().error.code);
    expect(codes.filter((code) => code === 'handover_pin_wrong')).toHaveLength(HANDOVER_PIN_MAX_TRIES - 1);
    expect(codes.filter((code) => code === 'handover_pin_locked')).toHaveLength(20 - (HANDOVER_PIN_MAX_TRIES - 1));
    expect((await storedParcel(t.app, parcel.id)).status).toBe('in_transit');
  });

  it('gives one holder when the right code is confirmed several times at once', async () => {
    const parcel = await carried();
    const { pin } = (await pinOf(receiver, parcel.id)).json();
    const answers = await Promise.all(Array.from({ length: 4 }, () => handOver(runner, parcel.id, pin)));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.statusCode !== 200)) expect(answer.statusCode).toBe(409);
    const kinds = (await readChain(t.store.db, parcel.id)).map((event) => event.kind);
    expect(kinds).toEqual(['created', 'picked_up', 'handed_over_pin']);
  });

  it('is the carrier’s alone, and refuses a code that is not six digits in Hungarian, changing nothing', async () => {
    const parcel = await carried();
    const { pin } = (await pinOf(receiver, parcel.id)).json();
    const before = await storedParcel(t.app, parcel.id);
    for (const [who, status, code] of [
      [otherRunner, 403, 'not_your_parcel'],
      [receiver, 403, 'forbidden'],
      [admin, 403, 'forbidden'],
      [null, 401, 'sign_in_required'],
    ] as const) {
      const response = await handOver(who, parcel.id, pin);
      expect(response.statusCode).toBe(status);
      expect(response.json().error.code).toBe(code);
    }
    for (const bad of ['12345', '1234567', 'abcdef', 123456, undefined]) {
      const response = await handOver(runner, parcel.id, bad);
      expect(response.statusCode, String(bad)).toBe(400);
      expect(response.json().error.fields.pin).toBe(messages.handoverPinFormat(6));
    }
    expect(await storedParcel(t.app, parcel.id)).toEqual(before);
    // None of those counted as a try: the right code still works.
    expect((await handOver(runner, parcel.id, pin)).statusCode).toBe(200);
  });
});
