import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';

/** A small picture made for a test: one colour (`red` tells two apart), as PNG or JPEG. */
export function testPicture({ format = 'png', red = 200 }: { format?: 'png' | 'jpeg'; red?: number } = {}) {
  const picture = sharp({ create: { width: 40, height: 30, channels: 3, background: { r: red, g: 90, b: 40 } } });
  return (format === 'png' ? picture.png() : picture.jpeg()).toBuffer();
}

const BOUNDARY = '----csomagteszt';

/**
 * A photo sent as the web sends one (a door, a proof, an incident): multipart with a single
 * `photo` part holding `data` — a picture, or anything a test wants refused.
 */
export function postPhoto(
  app: FastifyInstance,
  who: { cookie: string },
  url: string,
  data: Buffer,
  type = 'image/png',
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    headers: { cookie: who.cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; filename="foto"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
  });
}
