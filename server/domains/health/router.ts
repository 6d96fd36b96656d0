import { z } from 'zod';
import { publicProcedure, router } from '../../trpc/init.ts';

export const healthRouter = router({
  check: publicProcedure
    .meta({ rest: { method: 'GET', path: '/health', constant: true }, tag: 'Allgemein', summary: 'Liveness check.', access: 'none' })
    .output(z.object({ ok: z.literal(true) }))
    .query(() => ({ ok: true as const })),
});
