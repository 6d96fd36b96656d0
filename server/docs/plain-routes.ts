import { API_PREFIX } from '../transport/routes.ts';
import type { DocRoute } from './model.ts';

/**
 * Routes of the API that the transport mounts itself, not through a procedure (their answer is a
 * redirect, or depends on what the browser accepts), described here so the reference has them like
 * every other route. test/docs/docs.test.ts requests each on the live server: a route listed here
 * and not mounted fails it.
 */
export const plainRoutes: DocRoute[] = [
  {
    // mounted in transport/discord-login.ts, at /api/v1/invite and at the root (/invite)
    id: 'invite',
    method: 'GET',
    path: '/invite',
    fullPath: `${API_PREFIX}/invite`,
    tag: 'Allgemein',
    summary: 'Sends the browser on to Discord\'s page that adds the bot to a server, with the permissions it needs (302; the board\'s "Bot einladen" opens it). '
      + 'Also served at {root_url}/invite. Without a Discord client id on the server (DISCORD_TOKEN or DISCORD_CLIENT_ID) it answers 404: '
      + '{error} naming the setting, or a page saying so when the request accepts text/html.',
    access: 'none',
    scopes: [],
    sessionOnly: false,
    topics: [],
    params: [],
    body: null,
    bodyType: 'application/json',
    bodyRequired: false,
    response: null,
    produces: 'a redirect (302, Location)',
    statuses: [
      { status: 302, meaning: 'On to Discord\'s authorize page (Location), with the bot\'s client id, scopes bot and applications.commands, and its permissions.' },
      { status: 404, meaning: 'The server has no Discord client id: {error}, or an HTML page for a browser (Accept: text/html).' },
    ],
    responses: {
      302: {
        description: 'On to Discord\'s authorize page.',
        headers: { Location: { description: 'https://discord.com/oauth2/authorize?client_id=…&scope=bot+applications.commands&permissions=…', schema: { type: 'string', format: 'uri' } } },
      },
      404: {
        description: 'The Discord bot is not configured on this server (DISCORD_TOKEN or DISCORD_CLIENT_ID unset).',
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/Error' } },
          'text/html': { schema: { type: 'string' } },
        },
      },
    },
  },
];
