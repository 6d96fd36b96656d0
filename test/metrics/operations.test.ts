/**
 * The states an operator watches, read at the scrape: Redis up and down (a real redis-server
 * killed and started again), and the Discord gateway of the node (the bot against the stand-in:
 * connected, then reconnecting while the gateway is down).
 */
import t from 'tap';
import { startRedis } from '../helpers/redis.ts';
import { startTestServer } from '../helpers/server.ts';
import { botWorld } from '../helpers/discord-bot.ts';
import { until } from '../helpers/live.ts';

const TOKEN = 'metrics-token-for-the-operations-test';
const scrape = async (url: string) => {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  if (res.status !== 200) throw new Error(`scrape: ${res.status}`);
  return res.text();
};
/** Scrapes until `pattern` is in the text (a state that changes in the background). */
async function scrapedUntil(url: string, pattern: RegExp, what: string, ms = 10_000): Promise<void> {
  let text = '';
  const start = Date.now();
  while (!pattern.test((text = await scrape(url)))) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

t.test('redis_up follows Redis: 1, 0 while it is down, 1 again', async (t) => {
  const redis = await startRedis(t);
  const server = await startTestServer(t, { REDIS_URL: redis.url, METRICS_TOKEN: TOKEN });
  t.match(await scrape(server.url), /^dispatch_terminal_redis_up 1$/m, 'up');
  await redis.kill();
  await scrapedUntil(server.url, /^dispatch_terminal_redis_up 0$/m, 'redis_up 0');
  t.pass('down');
  await redis.start();
  await scrapedUntil(server.url, /^dispatch_terminal_redis_up 1$/m, 'redis_up 1');
  t.pass('up again');
});

t.test('discord_gateway: connected on the node holding it, connecting while Discord is away', async (t) => {
  const w = await botWorld(t, { env: { METRICS_TOKEN: TOKEN } });
  await scrapedUntil(w.server.url, /^dispatch_terminal_discord_gateway\{state="connected"\} 1$/m, 'connected');
  t.pass('connected');
  w.discord.down();
  await scrapedUntil(w.server.url, /^dispatch_terminal_discord_gateway\{state="connecting"\} 1$/m, 'connecting');
  t.pass('connecting while the gateway is down');
  w.discord.up();
  await scrapedUntil(w.server.url, /^dispatch_terminal_discord_gateway\{state="connected"\} 1$/m, 'connected again', 15_000);
  t.pass('connected again');
});

t.test('database_up and the transaction connections on a write', async (t) => {
  const server = await startTestServer(t, { METRICS_TOKEN: TOKEN });
  t.match(await scrape(server.url), /^dispatch_terminal_database_up 1$/m);
  server.deps.dbHealth.set(false, 'the test says so'); // what a request that lost its connection reports
  t.match(await scrape(server.url), /^dispatch_terminal_database_up 0$/m, 'down as the server sees it');
  await scrapedUntil(server.url, /^dispatch_terminal_database_up 1$/m, 'up once the probe answers');
  t.pass('up again after the probe');
});
