import { messages } from '@csomag/domain/messages';
import { parcelIdSchema } from '@csomag/domain/parcel';
import { PROOF_PHOTO_MAX_BYTES, proofKindSchema, proofListSchema } from '@csomag/domain/proof';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, errorResponses, refuse } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { parcelGuard } from '../parcels/policy.ts';
import { addPhoto, assertMayAddPhoto, listProofs, type ProofsContext, readProofImage } from './service.ts';

const params = z.object({ id: parcelIdSchema });

/** The one file field the upload takes. */
const PHOTO_FIELD = 'photo';

/** @fastify/multipart's limit errors, as this API words them (one shape for every refusal). */
function multipartRefusal(error: unknown): unknown {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return refuse('body_too_large', messages.proofTooLarge(PROOF_PHOTO_MAX_BYTES / 1024 / 1024));
  }
  if (code === 'FST_FILES_LIMIT') return refuse('invalid_body', messages.proofOneFile);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PROTO_VIOLATION') {
    return refuse('invalid_body', messages.proofNotMultipart);
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_MP_PREMATURE_CLOSE') {
    return refuse('invalid_body', messages.proofNotMultipart);
  }
  // busboy's own parse errors ("Malformed part header", "Unexpected end of form"): a broken body.
  if (error instanceof Error && !(error instanceof AppError) && !('statusCode' in error)) {
    return refuse('invalid_body', messages.proofNotMultipart);
  }
  return error;
}

/** Reads the whole multipart body: exactly one file, in the `photo` field. */
async function readOnePhoto(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw refuse('invalid_body', messages.proofNotMultipart);
  let photo: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== PHOTO_FIELD || photo !== undefined) {
        await part.toBuffer().catch(() => undefined);
        throw refuse(
          'invalid_body',
          part.fieldname === PHOTO_FIELD ? messages.proofOneFile : messages.proofNotMultipart,
        );
      }
      photo = await part.toBuffer();
    }
  } catch (error) {
    throw multipartRefusal(error);
  }
  if (photo === undefined) throw refuse('invalid_body', messages.proofNotMultipart);
  return photo;
}

/**
 * Proof of delivery (issue 15, docs/decisions/0023): the runner's photo upload, and the proof's
 * metadata and images for the sender, the receiver and the superadmin. Never a public URL: every
 * image is read with the session and never cached.
 */
export const proofRoutes: FastifyPluginAsyncZod = async (app) => {
  // Only here (this plugin's scope): nowhere else does the API take multipart bodies.
  await app.register(fastifyMultipart, {
    limits: { fileSize: PROOF_PHOTO_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 10, headerPairs: 50 },
  });
  const context = (request: FastifyRequest): ProofsContext => ({
    db: app.store.db,
    changes: app.changeFeed.forRequest(request.id),
  });

  app.post(
    '/parcels/:id/proof/photo',
    {
      onRequest: parcelGuard('addPhoto'),
      // The multipart parser reads the file itself within its own fileSize limit.
      bodyLimit: PROOF_PHOTO_MAX_BYTES + 64 * 1024,
      schema: {
        tags: ['proofs'],
        summary:
          "The runner's photo of the delivery: multipart, one JPEG, PNG or WebP file in `photo`, at most 8 MiB; stored re-encoded without metadata",
        params,
        response: {
          201: proofListSchema,
          ...errorResponses(...GUARD_CODES, 'parcel_not_found', 'not_your_parcel', 'parcel_not_in_transit'),
        },
      },
    },
    async (request, reply) => {
      const runner = signedIn(request);
      const now = Date.now();
      await assertMayAddPhoto(app.store.db, runner, request.params.id, now);
      const bytes = await readOnePhoto(request);
      const proofs = await addPhoto(context(request), runner, request.params.id, bytes, now);
      request.log.info({ parcelId: request.params.id, runner: runner.user_name, bytes: bytes.length }, 'proof photo');
      return reply.status(201).send(proofs);
    },
  );

  app.get(
    '/parcels/:id/proofs',
    {
      onRequest: parcelGuard('seeProof'),
      schema: {
        tags: ['proofs'],
        summary:
          "A parcel's proof of delivery (kind, sha256, whether the image is kept): its sender, receiver, superadmin",
        params,
        response: { 200: proofListSchema, ...errorResponses(...GUARD_CODES, 'parcel_not_found') },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return listProofs(app.store.db, signedIn(request), request.params.id);
    },
  );

  app.get(
    '/parcels/:id/proof/:kind',
    {
      onRequest: parcelGuard('seeProof'),
      schema: {
        tags: ['proofs'],
        summary: "A proof's image (JPEG photo, PNG signature), with the session only, never cached",
        params: params.extend({ kind: proofKindSchema }),
        response: errorResponses(...GUARD_CODES, 'parcel_not_found'),
      },
    },
    async (request, reply) => {
      const { image, mime, sha256 } = await readProofImage(
        app.store.db,
        signedIn(request),
        request.params.id,
        request.params.kind,
      );
      return (
        reply
          .header('content-type', mime)
          .header('cache-control', 'private, no-store')
          .header('content-disposition', 'inline')
          .header('x-content-sha256', sha256)
          // A Buffer bypasses the JSON serializer; the bytes go as they are stored.
          .send(image as never)
      );
    },
  );
};
