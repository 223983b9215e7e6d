import { z } from 'zod';

/**
 * The operator's own pages (issue 29): the privacy notice, contact and imprint a service run in
 * Hungary must publish. Their text is the operator's, as Markdown files; until one is provided its
 * page says plainly that it has not been published.
 */
export const OPERATOR_PAGES = ['privacy', 'contact', 'imprint'] as const;
export type OperatorPage = (typeof OPERATOR_PAGES)[number];

/** GET /api/pages/:page — the page rendered to safe HTML, or null while the operator has not published it. */
export const operatorPageSchema = z.object({
  page: z.enum(OPERATOR_PAGES),
  html: z.string().nullable(),
});
export type OperatorPageView = z.infer<typeof operatorPageSchema>;

/** Each page's file name under DATA_DIR/pages/, unless the environment names another path. */
export const operatorPageFiles: Record<OperatorPage, { file: string; env: string }> = {
  privacy: { file: 'adatvedelem.md', env: 'PRIVACY_PAGE' },
  contact: { file: 'kapcsolat.md', env: 'CONTACT_PAGE' },
  imprint: { file: 'impresszum.md', env: 'IMPRINT_PAGE' },
};
