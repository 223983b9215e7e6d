import { OPERATOR_PAGES, operatorPageSchema } from '@csomag/domain/operator-pages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { missingOperatorPages, renderOperatorPage } from './service.ts';

/** The privacy notice, contact and imprint (issue 29): public, as the operator wrote them. */
export const operatorPageRoutes: FastifyPluginAsyncZod = async (app) => {
  // A service run in Hungary must publish them: the start-up log says which are still missing.
  app.addHook('onReady', async () => {
    const missing = await missingOperatorPages(app.config.operatorPages);
    if (missing.length > 0) {
      app.log.warn(
        { missing: missing.map((page) => ({ page, path: app.config.operatorPages[page] })) },
        'operator pages not published yet: put the Markdown files at these paths',
      );
    }
  });

  app.get(
    '/pages/:page',
    {
      schema: {
        tags: ['pages'],
        summary:
          "The operator's privacy notice, contact or imprint as safe HTML from their Markdown file; null while not published",
        params: z.object({ page: z.enum(OPERATOR_PAGES) }),
        response: { 200: operatorPageSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'public, max-age=60');
      const { page } = request.params;
      return { page, html: await renderOperatorPage(app.config.operatorPages[page]) };
    },
  );
};
