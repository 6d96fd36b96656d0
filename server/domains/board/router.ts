import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { publicProcedure, router } from '../../trpc/init.ts';

const boardHtml = readFileSync(new URL('../../../board/index.html', import.meta.url), 'utf8');

/**
 * The page's query: `guild` opens that guild (the login link's redirect); the page checks it against
 * the signed-in user's guilds itself. Other parameters (a campaign tag, a cache buster) are ignored,
 * as any web page does: a browser must never get a JSON error instead of the board.
 */
const BoardQuery = z.looseObject({
  guild: z.string().optional().describe('Guild to open, when the signed-in user is a member of it; otherwise the board lets them choose.'),
}).optional();

export const boardRouter = router({
  page: publicProcedure
    .meta({
      rest: { method: 'GET', path: '/dispatch', produces: 'text/html', root: true }, tag: 'Allgemein', access: 'none',
      summary: 'The dispatch board as an HTML page (public; its data needs a session from a login link).',
    })
    .input(BoardQuery)
    .output(z.object({ contentType: z.literal('text/html'), text: z.string() }))
    .query(() => ({ contentType: 'text/html' as const, text: boardHtml })),
});
