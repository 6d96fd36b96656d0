import { z } from 'zod';
import { publicProcedure, router } from '../../trpc/init.ts';
import { databaseUnavailable } from '../../store/faults.ts';

export const healthRouter = router({
  check: publicProcedure
    .meta({ rest: { method: 'GET', path: '/health', constant: true }, tag: 'Allgemein', summary: 'Liveness check: the process serves requests (it does not ask the database).', access: 'none' })
    .output(z.object({ ok: z.literal(true) }))
    .query(() => ({ ok: true as const })),
  /**
   * Readiness, for load balancers: what the server's database probe last saw (it asks PostgreSQL
   * about once a second, and at once after any request that lost its connection).
   */
  ready: publicProcedure
    .meta({
      rest: { method: 'GET', path: '/ready' }, tag: 'Allgemein', access: 'none',
      summary: 'Readiness check: 200 while PostgreSQL answers; 503 with Retry-After while it does not (take the node out of rotation).',
      errors: { 503: 'PostgreSQL does not answer; retry after Retry-After seconds.' },
    })
    .output(z.object({ ready: z.literal(true) }))
    .query(({ ctx }) => {
      if (!ctx.deps.dbHealth.up) throw databaseUnavailable();
      return { ready: true as const };
    }),
});
