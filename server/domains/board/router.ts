import { z } from 'zod';
import { publicProcedure, router } from '../../trpc/init.ts';
import { boardBundle } from './bundle.ts';
import { pageHtml } from './page.ts';

/**
 * The page's query: `guild` opens that guild (the login link's redirect); the page checks it against
 * the signed-in user's guilds itself. Other parameters (a campaign tag, a cache buster) are ignored,
 * as any web page does: a browser must never get a JSON error instead of the board.
 */
const BoardQuery = z.looseObject({
  guild: z.string().optional().describe('Guild to open, when the signed-in user is a member of it; otherwise the board lets them choose.'),
}).optional();

const Html = z.object({ contentType: z.literal('text/html'), text: z.string() });

export const boardRouter = router({
  page: publicProcedure
    .meta({
      rest: { method: 'GET', path: '/dispatch', produces: 'text/html', root: true }, tag: 'Allgemein', access: 'none',
      summary: 'The dispatch board as an HTML page (public; its data needs a session from a login link).',
    })
    .input(BoardQuery)
    .output(Html)
    .query(async () => ({ contentType: 'text/html' as const, text: pageHtml(await boardBundle(), 'Dispatch Terminal') })),

  alarmPage: publicProcedure
    .meta({
      rest: { method: 'GET', path: '/dispatch/alarm', produces: 'text/html', root: true }, tag: 'Allgemein', access: 'none',
      summary: 'The alarm kiosk for a station monitor: full screen, the callsign and status of each alarm, a tone (public page; it needs a session from a login link).',
    })
    .input(BoardQuery)
    .output(Html)
    .query(async () => ({ contentType: 'text/html' as const, text: pageHtml(await boardBundle(), 'Alarm · Dispatch Terminal') })),
});
