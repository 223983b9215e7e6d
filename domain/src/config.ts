import { z } from 'zod';

/** GET /api/config: the server's settings the browser needs (the map's tile URL, the public origin). */
export const configResponseSchema = z.object({ tileUrl: z.string(), publicUrl: z.string().nullable() });
export type ConfigResponse = z.infer<typeof configResponseSchema>;
