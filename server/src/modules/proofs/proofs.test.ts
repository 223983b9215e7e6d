import { createHash } from 'node:crypto';
import { deflateRawSync, constants as zlib } from 'node:zlib';
import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import { PROOF_MAX_INPUT_PIXELS, PROOF_PHOTO_LONG_SIDE } from '@csomag/domain/proof';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { northOf, pickUp, storedEvents, storedParcel } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { removeExpiredProofImages } from './service.ts';

let t: TestApp;
let admin: SignedIn;
let sender: SignedIn;
let receiver: SignedIn;
let runner: SignedIn;
let otherRunner: SignedIn;
let otherUser: SignedIn;

const DOOR = { lat: 47.5295, lng: 21.6255 };

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
  sender = await signUp(t.app);
  receiver = await signUp(t.app, { address: `Debrecen, Piac utca ${Date.now() % 100000}` });
  runner = await signUp(t.app, { role: 'runner' });
  otherRunner = await signUp(t.app, { role: 'runner' });
  otherUser = await signUp(t.app);
});
afterAll(() => t.close());

/** A parcel to the receiver's address, with the pin at the door: a runner may deliver by position. */
const sendToReceiver = (overrides: Record<string, unknown> = {}) =>
  sendParcel(t.app, sender.cookie, {
    receiverAddress: receiver.account.address,
    receiverCoordinates: DOOR,
    ...overrides,
  });

async function carried(overrides: Record<string, unknown> = {}): Promise<Parcel> {
  const parcel = await sendToReceiver(overrides);
  await pickUp(t.app, runner.cookie, parcel.id);
  return parcel;
}

const BOUNDARY = '----csomagproof';

/** A multipart/form-data body built by hand: each part a file (name, filename, bytes) or a field. */
function multipart(parts: { name: string; filename?: string; type?: string; data: Buffer | string }[]) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`;
    const type = part.filename ? `\r\nContent-Type: ${part.type ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const upload = (
  parcelId: string,
  who: SignedIn | null,
  body: Buffer,
  type = `multipart/form-data; boundary=${BOUNDARY}`,
) =>
  t.app.inject({
    method: 'POST',
    url: `/api/parcels/${parcelId}/proof/photo`,
    headers: { 'content-type': type, ...(who ? { cookie: who.cookie } : {}) },
    payload: body,
  });

const photoBody = (data: Buffer, filename = 'leadas.jpg', type = 'image/jpeg') =>
  multipart([{ name: 'photo', filename, type, data }]);

/** A camera-like JPEG: 2400 × 1800 with the camera's make and a GPS position in its EXIF. */
const cameraJpeg = () =>
  sharp({ create: { width: 2400, height: 1800, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'KameraGyarto', Model: 'Telefon 9', Copyright: 'Titkos' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '47/1 31/1 46/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '21/1 37/1 31/1',
      },
    })
    .toBuffer();

const smallPng = () =>
  sharp({ create: { width: 40, height: 20, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .png()
    .toBuffer();

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/**
 * A decompression bomb: a valid PNG of `side` × `side` grey pixels, all zero, a few hundred
 * kilobytes on the wire (400 MB once decoded at 20,000). Cheap to make: one row is deflated once
 * (a sync-flushed block needs nothing before it) and repeated; zeros keep Adler-32 simple.
 */
function bombPng(side = 20_000) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rowBlock = deflateRawSync(Buffer.alloc(side + 1), { finishFlush: zlib.Z_SYNC_FLUSH });
  const total = (side + 1) * side;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((total % 65521) << 16) | 1) >>> 0);
  const idat = Buffer.concat([
    Buffer.from([0x78, 0x01]),
    ...Array.from({ length: side }, () => rowBlock),
    deflateRawSync(Buffer.alloc(0)),
    adler,
  ]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const storedProofs = (parcelId: string) =>
  t.store.db.selectFrom('proofs').selectAll().where('parcel_id', '=', parcelId).execute();

const deliverAtDoor = (parcelId: string, who = runner) =>
  t.app.inject({
    method: 'POST',
    url: `/api/parcels/${parcelId}/deliver`,
    headers: { cookie: who.cookie },
    payload: { ...northOf(DOOR, 3), accuracy: 5 },
  });

const get = (url: string, who: SignedIn | null) =>
  t.app.inject({ method: 'GET', url, ...(who ? { headers: { cookie: who.cookie } } : {}) });

/** A refused upload: its status, code and message, and nothing stored, no event. */
async function expectRefused(
  parcelId: string,
  response: Awaited<ReturnType<typeof upload>>,
  status: number,
  code: string,
  message: string,
) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json().error).toMatchObject({ code, message });
  expect(await storedProofs(parcelId)).toEqual([]);
  expect((await storedEvents(t.app, parcelId)).map((e) => e.kind)).not.toContain('proof_photo');
}

describe('POST /api/parcels/:id/proof/photo', () => {
  it('stores a JPEG with GPS EXIF re-encoded without any metadata, scaled down, with its sha256 and one event', async () => {
    const parcel = await carried();
    const original = await cameraJpeg();
    expect((await sharp(original).metadata()).exif).toBeDefined();

    const response = await upload(parcel.id, runner, photoBody(original));
    expect(response.statusCode, response.body).toBe(201);
    const [stored] = await storedProofs(parcel.id);
    expect(stored).toBeDefined();
    const image = Buffer.from(stored?.image ?? Buffer.alloc(0));
    const meta = await sharp(image).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(image.includes(Buffer.from('KameraGyarto'))).toBe(false);
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(PROOF_PHOTO_LONG_SIDE);
    expect(stored?.sha256).toBe(createHash('sha256').update(image).digest('hex'));
    expect(stored).toMatchObject({ kind: 'photo', mime: 'image/jpeg', width: 1600, height: 1200, removed_at: null });
    expect(response.json().items).toEqual([
      expect.objectContaining({ kind: 'photo', sha256: stored?.sha256, available: true }),
    ]);
    const events = await storedEvents(t.app, parcel.id);
    expect(events.at(-1)?.kind).toBe('proof_photo');
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({ sha256: stored?.sha256 });
    // The parcel itself did not change (a back-office form open on it stays valid).
    expect((await storedParcel(t.app, parcel.id)).version).toBe(2);
  });

  it('takes PNG and WebP too, and a retaken photo replaces the first', async () => {
    const parcel = await carried();
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    expect((await upload(parcel.id, runner, photoBody(png, 'a.png', 'image/png'))).statusCode).toBe(201);
    const webp = await sharp({ create: { width: 200, height: 300, channels: 3, background: '#993366' } })
      .webp()
      .toBuffer();
    expect((await upload(parcel.id, runner, photoBody(webp, 'a.webp', 'image/webp'))).statusCode).toBe(201);
    const proofs = await storedProofs(parcel.id);
    expect(proofs).toHaveLength(1);
    expect(proofs[0]).toMatchObject({ width: 200, height: 300, mime: 'image/jpeg' });
  });

  it('refuses a file over 8 MiB with 413', async () => {
    const parcel = await carried();
    const big = Buffer.alloc(9 * 1024 * 1024, 0xff);
    await expectRefused(
      parcel.id,
      await upload(parcel.id, runner, photoBody(big)),
      413,
      'body_too_large',
      messages.proofTooLarge(8),
    );
  });

  it('refuses a text file named .jpg with 415, told from its bytes', async () => {
    const parcel = await carried();
    const text = photoBody(Buffer.from('Ez csak szöveg, nem fénykép.\n'.repeat(20)), 'foto.jpg', 'image/jpeg');
    await expectRefused(
      parcel.id,
      await upload(parcel.id, runner, text),
      415,
      'unsupported_media_type',
      messages.proofNotImage,
    );
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    await expectRefused(
      parcel.id,
      await upload(parcel.id, runner, photoBody(gif, 'a.jpg')),
      415,
      'unsupported_media_type',
      messages.proofNotImage,
    );
  });

  it('refuses a 0-byte file, 50 files, no file and a body that is not multipart with 400', async () => {
    const parcel = await carried();
    await expectRefused(
      parcel.id,
      await upload(parcel.id, runner, photoBody(Buffer.alloc(0))),
      400,
      'invalid_body',
      messages.proofEmpty,
    );
    const jpeg = await smallPng();
    const fifty = multipart(
      Array.from({ length: 50 }, (_, i) => ({ name: 'photo', filename: `${i}.png`, data: jpeg })),
    );
    await expectRefused(parcel.id, await upload(parcel.id, runner, fifty), 400, 'invalid_body', messages.proofOneFile);
    const noFile = multipart([{ name: 'note', data: 'semmi' }]);
    await expectRefused(
      parcel.id,
      await upload(parcel.id, runner, noFile),
      400,
      'invalid_body',
      messages.proofNotMultipart,
    );
    const json = await upload(parcel.id, runner, Buffer.from('{"photo":"x"}'), 'application/json');
    await expectRefused(parcel.id, json, 400, 'invalid_body', messages.proofNotMultipart);
  });

  it('refuses a 20,000 × 20,000 image by its pixel count before decoding it', async () => {
    const parcel = await carried();
    // The same construction, small, is a PNG sharp decodes: the big one is a real image too.
    expect(await sharp(bombPng(300)).stats()).toBeDefined();
    const bomb = bombPng();
    expect(bomb.length).toBeLessThan(8 * 1024 * 1024);
    const response = await upload(parcel.id, runner, photoBody(bomb, 'bomba.png', 'image/png'));
    await expectRefused(
      parcel.id,
      response,
      413,
      'body_too_large',
      messages.proofTooManyPixels(PROOF_MAX_INPUT_PIXELS / 1_000_000),
    );
  });

  it('is only for the runner carrying the parcel: others 403, users 403, anonymous 401', async () => {
    const parcel = await carried();
    const body = photoBody(await smallPng(), 'a.png');
    const other = await upload(parcel.id, otherRunner, body);
    await expectRefused(parcel.id, other, 403, 'not_your_parcel', messages.notYourParcel);
    await expectRefused(parcel.id, await upload(parcel.id, sender, body), 403, 'forbidden', messages.forbidden);
    await expectRefused(parcel.id, await upload(parcel.id, admin, body), 403, 'forbidden', messages.forbidden);
    await expectRefused(
      parcel.id,
      await upload(parcel.id, null, body),
      401,
      'sign_in_required',
      messages.signInRequired,
    );
    const waiting = await sendToReceiver();
    await expectRefused(
      waiting.id,
      await upload(waiting.id, runner, body),
      403,
      'not_your_parcel',
      messages.notYourParcel,
    );
    const missing = await upload('0000000000', runner, body);
    expect(missing.statusCode).toBe(404);
  });

  it('lets the last runner add the photo shortly after the delivery, not later', async () => {
    const parcel = await carried();
    expect((await deliverAtDoor(parcel.id)).statusCode).toBe(200);
    const body = photoBody(await smallPng(), 'a.png');
    expect((await upload(parcel.id, runner, body)).statusCode).toBe(201);
    const old = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    await t.store.db.updateTable('parcels').set({ delivered_at: old }).where('id', '=', parcel.id).execute();
    const late = await upload(parcel.id, runner, body);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatchObject({ code: 'parcel_not_in_transit', message: messages.proofNotAllowed });
  });
});

describe('photo required by the sender', () => {
  it('refuses the 15 m delivery without the photo, changing nothing, and delivers once it is stored', async () => {
    const parcel = await carried({ photoRequired: true });
    expect(parcel.photoRequired).toBe(true);
    const before = await storedParcel(t.app, parcel.id);
    const eventsBefore = await storedEvents(t.app, parcel.id);

    const refused = await deliverAtDoor(parcel.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'photo_required', message: messages.proofPhotoRequired });
    expect(await storedParcel(t.app, parcel.id)).toEqual(before);
    expect(await storedEvents(t.app, parcel.id)).toEqual(eventsBefore);

    expect((await upload(parcel.id, runner, photoBody(await cameraJpeg()))).statusCode).toBe(201);
    const delivered = await deliverAtDoor(parcel.id);
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(delivered.json()).toMatchObject({ status: 'delivered', photoRequired: true });
  });

  it('does not hold up the superadmin’s delivery (a back-office correction)', async () => {
    const parcel = await carried({ photoRequired: true });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/parcels/${parcel.id}/deliver`,
      headers: { cookie: admin.cookie },
      payload: {},
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('does not count a photo taken by an earlier runner whose parcel went back to the pool', async () => {
    const parcel = await carried({ photoRequired: true });
    expect((await upload(parcel.id, runner, photoBody(await smallPng(), 'a.png'))).statusCode).toBe(201);
    const back = await t.app.inject({
      method: 'PATCH',
      url: `/api/parcels/${parcel.id}`,
      headers: { cookie: admin.cookie },
      payload: { status: 'waiting', reason: 'Nem ér oda' },
    });
    expect(back.statusCode).toBe(200);
    await pickUp(t.app, otherRunner.cookie, parcel.id);
    const refused = await deliverAtDoor(parcel.id, otherRunner);
    expect(refused.json().error.message).toBe(messages.proofPhotoRequired);
  });

  it('is false unless asked, and is not a boolean when sent as text', async () => {
    expect((await sendToReceiver()).photoRequired).toBe(false);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/parcels',
      headers: { cookie: sender.cookie },
      payload: {
        senderAddress: '6720 Szeged, Kárász utca 5',
        receiverAddress: 'Debrecen, Piac utca 1',
        category: 'Könyv',
        weightGrams: 100,
        photoRequired: 'igen',
      },
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('reading the proof', () => {
  let parcel: Parcel;
  beforeAll(async () => {
    parcel = await carried();
    expect((await upload(parcel.id, runner, photoBody(await cameraJpeg()))).statusCode).toBe(201);
    expect((await deliverAtDoor(parcel.id)).statusCode).toBe(200);
  });

  it('shows the photo to the sender, the receiver and the superadmin, never cached', async () => {
    const [stored] = await storedProofs(parcel.id);
    for (const who of [sender, receiver, admin]) {
      const list = await get(`/api/parcels/${parcel.id}/proofs`, who);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().items).toEqual([
        expect.objectContaining({ kind: 'photo', sha256: stored?.sha256, available: true, removedAt: null }),
      ]);
      const image = await get(`/api/parcels/${parcel.id}/proof/photo`, who);
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      expect(image.headers['cache-control']).toBe('private, no-store');
      expect(createHash('sha256').update(image.rawPayload).digest('hex')).toBe(stored?.sha256);
    }
  });

  it('is 404 for another user, another runner and the runner who took it; 401 anonymous', async () => {
    for (const who of [otherUser, otherRunner, runner]) {
      for (const url of [`/api/parcels/${parcel.id}/proofs`, `/api/parcels/${parcel.id}/proof/photo`]) {
        const response = await get(url, who);
        expect(response.statusCode).toBe(404);
        expect(response.json().error).toEqual({ code: 'parcel_not_found', message: messages.parcelNotFound });
      }
    }
    for (const url of [`/api/parcels/${parcel.id}/proofs`, `/api/parcels/${parcel.id}/proof/photo`]) {
      expect((await get(url, null)).statusCode).toBe(401);
    }
    expect((await get(`/api/parcels/${parcel.id}/proof/signature`, sender)).statusCode).toBe(404);
    expect((await get(`/api/parcels/${parcel.id}/proof/selfie`, sender)).statusCode).toBe(400);
  });
});

describe('signature at the QR handover', () => {
  async function handoverLink(parcelId: string) {
    const link = await t.app.inject({
      method: 'POST',
      url: `/api/parcels/${parcelId}/handover-token`,
      headers: { cookie: runner.cookie },
    });
    return new URL(link.json().url).searchParams.get('token') as string;
  }
  const strokes = [
    {
      penColor: 'black',
      points: [
        { x: 1, y: 2, time: 1, pressure: 0.5 },
        { x: 5, y: 8, time: 20, pressure: 0.5 },
      ],
    },
  ];

  /** The receiver confirms the runner's QR link, signing with `image`. */
  const confirmSigned = (parcelId: string, token: string, image: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/parcels/${parcelId}/handover`,
      payload: {
        token,
        futar: runner.account.userName,
        felado: sender.account.userName,
        signature: { image, strokes },
      },
    });

  it('stores the signature (re-encoded PNG and strokes) with the delivery, for the sender to see', async () => {
    // The receiver's own confirmation is not held up by a required photo (it may follow).
    const parcel = await carried({ photoRequired: true });
    const token = await handoverLink(parcel.id);
    const image = `data:image/png;base64,${(await smallPng()).toString('base64')}`;
    const response = await confirmSigned(parcel.id, token, image);
    expect(response.statusCode, response.body).toBe(200);
    const [stored] = await storedProofs(parcel.id);
    expect(stored).toMatchObject({ kind: 'signature', mime: 'image/png', width: 40, height: 20, created_by: null });
    expect(JSON.parse(stored?.strokes ?? 'null')).toEqual(strokes);
    const events = await storedEvents(t.app, parcel.id);
    expect(events.at(-1)?.kind).toBe('handed_over_qr');
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toEqual({
      signatureSha256: stored?.sha256,
      // Nobody signed in on the confirming phone, and no name typed (issue 27).
      confirmedBy: { accountId: null, account: null, name: null },
    });
    const seen = await get(`/api/parcels/${parcel.id}/proof/signature`, sender);
    expect(seen.statusCode).toBe(200);
    expect(seen.headers['content-type']).toBe('image/png');
  });

  it('refuses a signature that is not a PNG, or too large, and hands nothing over', async () => {
    const parcel = await carried();
    const token = await handoverLink(parcel.id);
    const jpeg = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    for (const image of [
      `data:image/png;base64,${jpeg.toString('base64')}`,
      'data:image/png;base64,AAAA',
      `data:image/png;base64,${'A'.repeat(400 * 1024)}`,
      'javascript:alert(1)',
    ]) {
      const response = await confirmSigned(parcel.id, token, image);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.code).toBe('invalid_body');
      expect((await storedParcel(t.app, parcel.id)).status).toBe('in_transit');
      expect(await storedProofs(parcel.id)).toEqual([]);
    }
  });
});

describe('deletion and retention', () => {
  it('deleting a parcel deletes its proof', async () => {
    const parcel = await carried();
    expect((await upload(parcel.id, runner, photoBody(await smallPng(), 'a.png'))).statusCode).toBe(201);
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/parcels/${parcel.id}`,
      headers: { cookie: admin.cookie },
      payload: { reason: 'Teszt törlés' },
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(await storedProofs(parcel.id)).toEqual([]);
  });

  it('removes images of parcels delivered longer ago than the retention, keeping hash and timeline', async () => {
    const parcel = await carried();
    expect((await upload(parcel.id, runner, photoBody(await smallPng(), 'a.png'))).statusCode).toBe(201);
    expect((await deliverAtDoor(parcel.id)).statusCode).toBe(200);
    const recent = await carried();
    expect((await upload(recent.id, runner, photoBody(await smallPng(), 'a.png'))).statusCode).toBe(201);
    expect((await deliverAtDoor(recent.id)).statusCode).toBe(200);

    const longAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toISOString();
    await t.store.db.updateTable('parcels').set({ delivered_at: longAgo }).where('id', '=', parcel.id).execute();
    await t.store.db.updateTable('proofs').set({ created_at: longAgo }).where('parcel_id', '=', parcel.id).execute();
    const [before] = await storedProofs(parcel.id);

    expect(await removeExpiredProofImages(t.store.db, 30)).toBeGreaterThanOrEqual(1);
    const [after] = await storedProofs(parcel.id);
    expect(after).toMatchObject({ image: null, sha256: before?.sha256 });
    expect(after?.removed_at).not.toBeNull();
    expect((await storedEvents(t.app, parcel.id)).map((e) => e.kind)).toContain('proof_photo');
    expect((await storedProofs(recent.id))[0]?.image).not.toBeNull();

    const list = (await get(`/api/parcels/${parcel.id}/proofs`, sender)).json();
    expect(list.items).toEqual([expect.objectContaining({ sha256: before?.sha256, available: false })]);
    expect((await get(`/api/parcels/${parcel.id}/proof/photo`, sender)).statusCode).toBe(404);
    // A second sweep finds nothing more.
    expect(await removeExpiredProofImages(t.store.db, 30)).toBe(0);
  });
});
