/**
 * A node that gives up the gateway (shutdown, or the lease lost) while discord.js is in the middle
 * of reconnecting must not connect again later beside the new holder.
 */
import t from 'tap';
import { botWorld } from '../helpers/discord-bot.ts';

t.test('stopping the bot during a reconnect leaves no connection behind', async (t) => {
  const w = await botWorld(t);
  t.equal(w.discord.openSockets(), 1);
  w.discord.down(); // the gateway closes and refuses: discord.js retries every ~0.5 s
  await new Promise((r) => setTimeout(r, 1_200));
  await w.server.deps.chat.close();
  const identifies = w.discord.identifies;
  w.discord.up();
  await new Promise((r) => setTimeout(r, 3_000));
  t.equal(w.discord.openSockets(), 0, 'no gateway socket after the stop');
  t.equal(w.discord.identifies, identifies, 'no IDENTIFY after the stop');
  const [lease] = await w.server.sql`select count(*)::int as n from chat_gateway`;
  t.equal(lease.n, 0, 'the lease is given back');
});
