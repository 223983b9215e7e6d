import fp from 'fastify-plugin';
import { PROOF_RETENTION_SWEEP_MS, removeExpiredProofImages } from './service.ts';

/**
 * Removes proof images past PROOF_RETENTION_DAYS at start and every hour, on every instance (a
 * sweep another instance already made finds nothing): the hash and the timeline event stay.
 */
export const proofRetention = fp(async (app) => {
  let timer: NodeJS.Timeout | undefined;
  const sweep = () =>
    removeExpiredProofImages(app.store.db, app.config.proofRetentionDays)
      .then((removed) => {
        if (removed > 0) app.log.info({ removed }, 'proof images past retention removed');
      })
      .catch((err) => app.log.warn({ err }, 'removing expired proof images failed'));
  app.addHook('onReady', async () => {
    void sweep();
    timer = setInterval(() => void sweep(), PROOF_RETENTION_SWEEP_MS).unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
});
