import t from 'tap';
import { createLog } from '../../server/core/log.ts';
import { createRedisBus } from '../../server/hub/bus-redis.ts';
import { client, startTestServer, type TestServer } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard, until } from '../helpers/live.ts';
import { startRedis } from '../helpers/redis.ts';

// A node receives through Redis only the events of the guilds it serves (issue 30): per-guild
// channels, followed while the node has a board of the guild, left a while after the last one.
const [GA, GB, GC] = ['562000000000000001', '562000000000000002', '562000000000000003'];
const TOPICS = ['onDuty', 'units'] as const;
const redis = await startRedis(t);
const METRICS_TOKEN = 'metrics-token-of-the-follow-test';
const log = createLog('silent');
// Node A evicts an idle guild after 300 ms and leaves its channel 200 ms later; node B is a plain node.
const nodeA = await startTestServer(t, { REDIS_URL: redis.url, METRICS_TOKEN },
  { hub: { positionCheckMs: 100, idleEvictMs: 300 }, bus: await createRedisBus(redis.url, log, { unfollowDelayMs: 200 }) });
const nodeB = await startTestServer(t, { REDIS_URL: redis.url }, { databaseUrl: nodeA.databaseUrl });
const people = Array.from({ length: 6 }, (_, i) => ({ userId: `u${i + 1}`, nickname: `Person ${i + 1}`, badge: String(i + 1), rank: 'crew' }));
const keys: Record<string, string> = {};
for (const g of [GA, GB, GC]) {
  await seedGuild(nodeA.sql, g, people);
  keys[g] = await unscopedKey(nodeA.sql, g);
}
const apiA = client(nodeA);
const apiB = client(nodeB);
const clockIn = (api: typeof apiB, guild: string, badge: number) => api('POST', '/admin/clock-in', { key: keys[guild], body: { badge } });
const clockOut = (api: typeof apiB, guild: string, badge: number) => api('POST', '/admin/clock-out', { key: keys[guild], body: { badge } });
const heardOf = (node: TestServer, guild: string) => node.events.filter((e) => e.guildId === guild).length;
const metric = async (node: TestServer, name: string) => {
  const text = await (await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Number(new RegExp(`^dispatch_terminal_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
};

t.test('a node hears the guilds it serves, not the others', async (t) => {
  const board = openBoard(nodeA.url, { apiKey: keys[GA], topics: [...TOPICS] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.equal(await metric(nodeA, 'bus_guilds_followed'), 1, 'node A follows the one guild it has a board of');

  for (let badge = 1; badge <= 5; badge++) t.equal((await clockIn(apiB, GB, badge)).status, 200);
  // Redis delivers one publisher's messages in order: once A has heard this one on the bus, B's writes before it would
  // have arrived too. (The board alone is no sign: node A's position check reads a late event from the log.)
  t.equal((await clockIn(apiB, GA, 1)).status, 200);
  await board.until(() => 'u1' in board.state.topics.onDuty!, 3000);
  await until(() => heardOf(nodeA, GA) > 0, 'node A hears guild A\'s event on the bus', 3000);
  t.equal(heardOf(nodeA, GB), 0, 'none of the other guild\'s five events reached node A');
  t.equal(heardOf(nodeA, GA), 1, 'its own guild\'s event did');
  t.equal(await metric(nodeA, 'bus_events_received_total'), 1, 'and the metric counts exactly that one');

  t.equal((await clockIn(apiA, GA, 2)).status, 200);
  await board.until(() => 'u2' in board.state.topics.onDuty!, 3000);
  t.equal(await metric(nodeA, 'bus_events_received_total'), 1, 'a node\'s own write is not counted again from its echo');
  t.equal(board.state.stats.gaps, 0);
});

t.test('a node that follows a guild late catches up from the log: gap-free, nothing twice', async (t) => {
  for (let badge = 1; badge <= 4; badge++) t.equal((await clockIn(apiB, GC, badge)).status, 200);
  const board = openBoard(nodeA.url, { apiKey: keys[GC], topics: [...TOPICS] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.same(Object.keys(board.state.topics.onDuty!).sort(), ['u1', 'u2', 'u3', 'u4'], 'the snapshot has the writes from before');
  // Writes from the other node right after the board joined, while node A's subscription is fresh.
  for (let badge = 1; badge <= 4; badge++) t.equal((await clockOut(apiB, GC, badge)).status, 200);
  t.equal((await clockIn(apiB, GC, 5)).status, 200);
  const [head] = await nodeA.sql`select seq::int from event_streams where guild_id = ${GC}`;
  await board.until(() => board.state.seq === head.seq, 3000);
  t.same(Object.keys(board.state.topics.onDuty!), ['u5'], 'live from then on');
  t.equal(board.state.stats.gaps, 0, 'no gap');
  t.equal(board.state.stats.duplicates, 0, 'nothing twice');
});

t.test('a while after the last board left, the node stops hearing the guild', async (t) => {
  const keep = openBoard(nodeA.url, { apiKey: keys[GC], topics: [...TOPICS] }); // stays: the marker below arrives through it
  t.teardown(keep.close);
  await keep.until(() => keep.state.stats.snapshots === 1);
  const gone = openBoard(nodeA.url, { apiKey: keys[GB], topics: [...TOPICS] });
  await gone.until(() => gone.state.stats.snapshots === 1);
  gone.close();
  await until(() => nodeA.deps.bus.stats.followed === 1 && nodeA.deps.hub.loaded(GB) === undefined, 'guild B left', 5000);
  t.pass('guild B evicted from node A and its channel left');

  const before = heardOf(nodeA, GB);
  t.equal((await clockOut(apiB, GB, 1)).status, 200);
  t.equal((await clockOut(apiB, GB, 2)).status, 200);
  t.equal((await clockOut(apiB, GC, 5)).status, 200);
  await keep.until(() => !('u5' in keep.state.topics.onDuty!), 3000);
  t.equal(heardOf(nodeA, GB), before, 'guild B\'s writes no longer reach node A');
});
