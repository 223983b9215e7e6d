import { attemptListSchema } from '@csomag/domain/attempts';
import { INCIDENT_PHOTOS_MAX, incidentParamsSchema, incidentSchema } from '@csomag/domain/incidents';
import { messages } from '@csomag/domain/messages';
import { parcelIdSchema } from '@csomag/domain/parcel';
import { PROOF_PHOTO_MAX_BYTES, proofKindSchema, proofListSchema } from '@csomag/domain/proof';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, errorResponses, refuse } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { addAttemptPhoto, listAttempts, readAttemptPhoto } from '../attempts/service.ts';
import { incidentGuard } from '../incidents/policy.ts';
import { addIncidentPhoto, readIncidentPhoto } from '../incidents/service.ts';
import { parcelGuardOrLink, partyOf } from '../mail/receiver-link.ts';
import { CARRIER_REFUSALS } from '../parcels/changes.ts';
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

  // A failed attempt's photo of the door (issue 28): the same upload, kept with the attempt.
  const attemptParams = params.extend({
    number: z.coerce.number({ error: messages.attemptNotFound }).int({ error: messages.attemptNotFound }).min(1, {
      error: messages.attemptNotFound,
    }),
  });
  app.post(
    '/parcels/:id/attempts/:number/photo',
    {
      onRequest: parcelGuard('addPhoto'),
      bodyLimit: PROOF_PHOTO_MAX_BYTES + 64 * 1024,
      schema: {
        tags: ['attempts'],
        summary:
          "The runner's photo of the door at a failed attempt they recorded: multipart like the delivery photo; a second one replaces it",
        params: attemptParams,
        response: {
          201: attemptListSchema,
          ...errorResponses(...GUARD_CODES, ...CARRIER_REFUSALS, 'attempt_not_found'),
        },
      },
    },
    async (request, reply) => {
      const runner = signedIn(request);
      const { id, number } = request.params;
      const changes = app.changeFeed.forRequest(request.id);
      const bytes = await addAttemptPhoto({ db: app.store.db, changes }, runner, id, number, () =>
        readOnePhoto(request),
      );
      request.log.info({ parcelId: id, runner: runner.user_name, attempt: number, bytes }, 'attempt photo');
      return reply.status(201).send(await listAttempts(app.store.db, runner, id, app.config.returnAfterAttempts));
    },
  );

  app.get(
    '/parcels/:id/attempts/:number/photo',
    {
      onRequest: parcelGuardOrLink(app, 'seeProof'),
      schema: {
        tags: ['attempts'],
        summary:
          "A failed attempt's photo (JPEG): the parcel's sender, receiver (also by the link in their mail) and the back office, never cached",
        params: attemptParams,
        response: errorResponses(...GUARD_CODES, 'receiver_link_invalid', 'parcel_not_found', 'attempt_not_found'),
      },
    },
    async (request, reply) => {
      const { id, number } = request.params;
      return sendImage(reply, await readAttemptPhoto(app.store.db, partyOf(request), id, number));
    },
  );

  // An incident's photos (issue 28): by the person who reported it, read by the back office.
  const incidentPhotoParams = incidentParamsSchema.extend({ number: attemptParams.shape.number });
  app.post(
    '/incidents/:id/photos',
    {
      onRequest: incidentGuard('report'),
      bodyLimit: PROOF_PHOTO_MAX_BYTES + 64 * 1024,
      schema: {
        tags: ['incidents'],
        summary: `A photo of an incident by the person who reported it: multipart like the delivery photo; at most ${INCIDENT_PHOTOS_MAX}`,
        params: incidentParamsSchema,
        response: {
          201: incidentSchema,
          ...errorResponses(...GUARD_CODES, 'incident_not_found', 'incident_photos_full'),
        },
      },
    },
    async (request, reply) => {
      const incident = await addIncidentPhoto(app.store.db, signedIn(request), request.params.id, () =>
        readOnePhoto(request),
      );
      request.log.info({ incidentId: incident.id, photos: incident.photos.length }, 'incident photo');
      return reply.status(201).send(incident);
    },
  );

  app.get(
    '/incidents/:id/photos/:number',
    {
      onRequest: incidentGuard('view'),
      schema: {
        tags: ['incidents'],
        summary: "An incident's photo (JPEG), for the back office, never cached",
        params: incidentPhotoParams,
        response: errorResponses(...GUARD_CODES, 'incident_not_found'),
      },
    },
    async (request, reply) =>
      sendImage(reply, await readIncidentPhoto(app.store.db, request.params.id, request.params.number)),
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
      const proof = await readProofImage(app.store.db, signedIn(request), request.params.id, request.params.kind);
      return sendImage(reply, proof);
    },
  );
};

/** A stored image, to the session that may see it only: never cached, its hash beside it. */
const sendImage = (reply: FastifyReply, { image, mime, sha256 }: { image: Buffer; mime: string; sha256: string }) =>
  reply
    .header('content-type', mime)
    .header('cache-control', 'private, no-store')
    .header('content-disposition', 'inline')
    .header('x-content-sha256', sha256)
    // A Buffer bypasses the JSON serializer; the bytes go as they are stored.
    .send(image as never);
