import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { publicProcedure, router } from '../../trpc/init.ts';

const boardHtml = readFileSync(new URL('../../../board/index.html', import.meta.url), 'utf8');

export const boardRouter = router({
  page: publicProcedure
    .meta({
      rest: { method: 'GET', path: '/dispatch', produces: 'text/html', root: true }, tag: 'Allgemein', access: 'none',
      summary: 'The dispatch board as an HTML page (public; its data needs a session from a login link).',
    })
    .output(z.object({ contentType: z.literal('text/html'), text: z.string() }))
    .query(() => ({ contentType: 'text/html' as const, text: boardHtml })),
});
