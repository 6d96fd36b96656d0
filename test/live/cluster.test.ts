/**
 * Nodes on a real Redis Cluster (three masters, three replicas; test/helpers/redis-cluster.ts):
 * every board hears every event of its guild once, in order, from writes on any node; a node hears
 * through Redis only the guilds it serves (also on a single Redis: per-guild channels); a killed
 * master under write load loses and doubles nothing; a node that follows a guild late catches up
 * from the log, also when its subscription is slow; a node started with a dead seed first in
 * REDIS_URL still joins. The nodes' position check is off (60 s), so only the bus and its own
 * catch-up can bring a board up to date within the deadlines.
 */
import t, { type Test } from 'tap';
import { client, startTestServer, type TestServer } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard, until } from '../helpers/live.ts';
import { startRedis } from '../helpers/redis.ts';
import { startRedisCluster } from '../helpers/redis-cluster.ts';
import { serveProcess } from '../helpers/serve-process.ts';
import { holdingRelay } from '../helpers/holding-relay.ts';
import { createRedisBus } from '../../server/hub/bus-redis.ts';
import { createLog } from '../../server/core/log.ts';

const TOPICS = ['onDuty', 'overview', 'dispatchers', 'units', 'alarm'] as const;
const TOKEN = 'metrics-token-for-the-cluster-test';
/** Events that came from other nodes through Redis, counted after the sender check. */
const RECEIVED = 'dispatch_terminal_bus_events_received_total';
const hub = { positionCheckMs: 60_000, gapGraceMs: 20 };
const people = Array.from({ length: 6 }, (_, i) => ({ userId: `u${i + 1}`, nickname: `Person ${i + 1}`, badge: String(i + 1), rank: 'crew' }));
type Board = ReturnType<typeof openBoard>;

const cluster = await startRedisCluster(t);
const nodeA = await startTestServer(t, { REDIS_URL: cluster.url, METRICS_TOKEN: TOKEN }, { hub });
const nodeB = await startTestServer(t, { REDIS_URL: cluster.url, METRICS_TOKEN: TOKEN }, { databaseUrl: nodeA.databaseUrl, hub });

/** Guild ids whose channels `dt:g:<id>` hash to distinct masters (one per master), so every shard carries a guild. */
async function guildsOnEveryShard(prefix: string): Promise<string[]> {
  const byMaster = new Map<number, string>();
  for (let i = 1; byMaster.size < 3 && i < 200; i++) {
    const id = `${prefix}${String(i).padStart(4, '0')}`;
    const { port } = await cluster.masterOf(`dt:g:${id}`);
    if (!byMaster.has(port)) byMaster.set(port, id);
  }
  return [...byMaster.values()];
}

interface Guild { id: string; key: string }
async function seed(node: TestServer, ids: string[]): Promise<Guild[]> {
  const out: Guild[] = [];
  for (const id of ids) {
    await seedGuild(node.sql, id, people);
    out.push({ id, key: await unscopedKey(node.sql, id) });
  }
  return out;
}

/** Clock a person in and out again through REST on `node`: two events of the guild. */
async function toggle(node: TestServer, g: Guild, i: number): Promise<number> {
  const api = client(node);
  const badge = people[i % people.length].badge;
  let ok = 0;
  if ((await api('POST', '/admin/clock-in', { key: g.key, body: { badge } })).status === 200) ok++;
  if ((await api('POST', '/admin/clock-out', { key: g.key, body: { badge } })).status === 200) ok++;
  return ok;
}

async function head(node: TestServer, guildId: string): Promise<number> {
  const [row] = await node.sql`select seq::int from event_streams where guild_id = ${guildId}`;
  return row?.seq ?? 0;
}

function board(node: TestServer, g: Guild): Board {
  return openBoard(node.url, { apiKey: g.key, topics: [...TOPICS] });
}

/** The deltas a board applied since its snapshot chain each to the one before: in order, none left out, none twice. */
function checkChain(t: Test, b: Board, label: string, headSeq: number) {
  const frames = b.frames;
  t.equal(frames[0]?.kind, 'snapshot', `${label}: starts with its snapshot`);
  let seq = frames[0]?.seq ?? 0;
  const broken: string[] = [];
  for (const f of frames.slice(1)) {
    if (f.kind !== 'delta' || f.prev !== seq || f.seq <= seq) broken.push(`${f.kind} ${f.seq} (prev ${f.prev}) after ${seq}`);
    seq = f.seq;
  }
  t.same(broken, [], `${label}: every delta follows the one before`);
  t.equal(seq, headSeq, `${label}: reached the guild's head ${headSeq}`);
  t.same(b.state.stats, { snapshots: 1, deltas: frames.length - 1, duplicates: 0, gaps: 0 }, `${label}: one snapshot, no duplicate, no gap`);
}

/** Each board equals a fresh snapshot (a new subscription without lastEventId) of its node. */
async function checkFresh(t: Test, boards: { node: TestServer; g: Guild; b: Board; label: string }[]) {
  for (const { node, g, b, label } of boards) {
    const fresh = board(node, g);
    t.teardown(fresh.close);
    const h = await head(node, g.id);
    await fresh.until(() => fresh.state.stats.snapshots === 1 && fresh.state.seq === h, 5000);
    t.same(b.state.topics, fresh.state.topics, `${label}: equals a fresh snapshot`);
  }
}

async function scrapeReceived(node: TestServer): Promise<number | undefined> {
  const text = await (await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const lines = text.split('\n').filter((l) => l.startsWith(`${RECEIVED} `) || l.startsWith(`${RECEIVED}{`));
  return lines.length ? lines.reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0) : undefined;
}

t.test('boards of several guilds on both nodes: every event once, in order, whichever node wrote it', async (t) => {
  const guilds = await seed(nodeA, await guildsOnEveryShard('58000000000000'));
  const boards = guilds.flatMap((g) => [nodeA, nodeB].map((node) => ({ node, g, b: board(node, g), label: `${g.id} on ${node === nodeA ? 'A' : 'B'}` })));
  t.teardown(() => boards.forEach((x) => x.b.close()));
  await Promise.all(boards.map((x) => x.b.until(() => x.b.state.stats.snapshots === 1)));
  for (let round = 0; round < 6; round++) {
    await Promise.all(guilds.map((g, i) => toggle((round + i) % 2 ? nodeA : nodeB, g, round)));
  }
  for (const x of boards) {
    const h = await head(nodeA, x.g.id);
    await x.b.until(() => x.b.state.seq === h, 5000).catch(() => {});
    checkChain(t, x.b, x.label, h);
  }
  await checkFresh(t, boards);
});

/**
 * Node X serves guild GA only; node Y writes GB and GA. X's bus must hand it GA's events from Y
 * and none of GB's: the metric grows by GA's events alone.
 */
async function onlyOwnGuilds(t: Test, x: TestServer, y: TestServer, ga: Guild, gb: Guild) {
  const bx = board(x, ga);
  const by = board(y, gb);
  t.teardown(() => { bx.close(); by.close(); });
  await Promise.all([bx, by].map((b) => b.until(() => b.state.stats.snapshots === 1)));
  const before = await scrapeReceived(x);
  t.ok(before !== undefined, `node X exports ${RECEIVED} (${before})`);
  const seqA = await head(y, ga.id);
  let writesB = 0;
  for (let i = 0; i < 6; i++) writesB += await toggle(y, gb, i);
  t.equal(writesB, 12, 'guild B took its writes on node Y');
  const afterB = await scrapeReceived(x);
  await toggle(y, ga, 0);
  await toggle(y, ga, 1);
  const headA = await head(y, ga.id);
  await bx.until(() => bx.state.seq === headA, 5000);
  await until(() => x.events.some((e) => e.guildId === ga.id && e.seq === headA), 'node X heard GA\'s last event', 2000);
  await new Promise((r) => setTimeout(r, 300)); // a late GB message would have arrived by now
  const after = await scrapeReceived(x);
  t.equal(afterB, before, `B's ${writesB} events on Y did not reach X (received ${before} → ${afterB})`);
  t.equal((after ?? NaN) - (before ?? NaN), headA - seqA, `A's ${headA - seqA} events from Y did (received ${before} → ${after})`);
  const heardB = x.events.filter((e) => e.guildId === gb.id).length;
  t.equal(heardB, 0, `node X's bus handed it none of guild B's events (it handed ${heardB})`);
}

t.test('a node hears through the Redis Cluster only the guilds it serves', async (t) => {
  const [ga, gb] = await seed(nodeA, ['581000000000000001', '581000000000000002']);
  await onlyOwnGuilds(t, nodeA, nodeB, ga, gb);
});

t.test('a node hears through a single Redis only the guilds it serves (per-guild channels)', async (t) => {
  const redis = await startRedis(t);
  const x = await startTestServer(t, { REDIS_URL: redis.url, METRICS_TOKEN: TOKEN }, { hub });
  const y = await startTestServer(t, { REDIS_URL: redis.url, METRICS_TOKEN: TOKEN }, { databaseUrl: x.databaseUrl, hub });
  const [ga, gb] = await seed(x, ['582000000000000001', '582000000000000002']);
  await onlyOwnGuilds(t, x, y, ga, gb);
});

t.test('a node that follows a guild late catches up from the log, gap-free, while writes go on', async (t) => {
  const guilds = await seed(nodeA, ['583000000000000001', '583000000000000002', '583000000000000003']);
  for (const g of guilds) {
    for (let i = 0; i < 3; i++) await toggle(nodeB, g, i); // history before anyone on A follows the guild
    // The first board on A joins while B keeps writing, and the writes stop the moment the board
    // has its snapshot: the last events fall around the moment A subscribes, and no later event
    // comes to reveal a gap, so only a follow that is ready before the snapshot (or catches up
    // once it is) brings them.
    let running = true;
    const writer = (async () => { for (let i = 0; running; i++) await toggle(nodeB, g, i); })();
    await new Promise((r) => setTimeout(r, 30));
    const b = board(nodeA, g);
    t.teardown(b.close);
    await b.until(() => b.state.stats.snapshots === 1);
    running = false;
    await writer;
    const h = await head(nodeB, g.id);
    await b.until(() => b.state.seq === h, 5000).catch(() => {});
    checkChain(t, b, `${g.id}, followed late on A`, h);
    await checkFresh(t, [{ node: nodeA, g, b, label: `${g.id} on A` }]);
  }
});

t.test('a guild followed late: events between the snapshot and a slow subscription are not lost (single Redis)', async (t) => {
  const redis = await startRedis(t);
  const relay = await holdingRelay(t, redis.port);
  const x = await startTestServer(t, { REDIS_URL: relay.url }, { hub });
  const y = await startTestServer(t, { REDIS_URL: redis.url }, { databaseUrl: x.databaseUrl, hub });
  const [g] = await seed(x, ['585000000000000001']);
  await toggle(y, g, 0);
  // X's subscription to the guild's channel is on its way but not at Redis yet when Y writes.
  relay.hold();
  const b = board(x, g);
  t.teardown(b.close);
  await new Promise((r) => setTimeout(r, 300));
  t.equal(await toggle(y, g, 1), 2, 'Y wrote while X was subscribing');
  relay.release();
  const h = await head(y, g.id);
  await b.until(() => b.state.seq === h, 5000).catch(() => {});
  checkChain(t, b, 'the board on X', h);
  await checkFresh(t, [{ node: x, g, b, label: 'the board on X' }]);
});

t.test('a node leaves a guild\'s sharded channel after its last board: it hears the guild no more', async (t) => {
  // Idle guilds leave the hub after 300 ms and the channel 200 ms later (production: 60 s and 30 s).
  const bus = await createRedisBus(cluster.url, createLog('silent'), { unfollowDelayMs: 200 });
  const nodeD = await startTestServer(t, { REDIS_URL: cluster.url }, { databaseUrl: nodeA.databaseUrl, hub: { positionCheckMs: 100, idleEvictMs: 300 }, bus });
  const [g] = await seed(nodeA, ['587000000000000001']);
  const b = board(nodeD, g);
  await b.until(() => b.state.stats.snapshots === 1);
  await toggle(nodeA, g, 0);
  const h = await head(nodeA, g.id);
  await b.until(() => b.state.seq === h, 5000);
  b.close();
  await until(() => bus.stats.followed === 0, 'node D follows the guild no more', 5000);
  const heard = nodeD.events.filter((e) => e.guildId === g.id).length;
  await toggle(nodeA, g, 1);
  await new Promise((r) => setTimeout(r, 300)); // a message on a channel still subscribed would have arrived by now
  t.equal(nodeD.events.filter((e) => e.guildId === g.id).length, heard, 'no event of the guild reached node D after it left the channel');
});

t.test('a master killed under write load: its replica takes over, boards on every node end equal to a fresh snapshot', async (t) => {
  const guilds = await seed(nodeA, await guildsOnEveryShard('58400000000000'));
  const boards = guilds.flatMap((g) => [nodeA, nodeB].map((node) => ({ node, g, b: board(node, g), label: `${g.id} on ${node === nodeA ? 'A' : 'B'}` })));
  t.teardown(() => boards.forEach((x) => x.b.close()));
  await Promise.all(boards.map((x) => x.b.until(() => x.b.state.stats.snapshots === 1)));

  let running = true;
  let writes = 0;
  const writer = (async () => {
    for (let i = 0; running; i++) {
      writes += await toggle(i % 2 ? nodeA : nodeB, guilds[i % guilds.length], i);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  await new Promise((r) => setTimeout(r, 400));
  // The master the nodes were pointed at (REDIS_URL), which also carries one guild's channel.
  const victim = Number(new URL(cluster.url).port);
  const writesBefore = writes;
  await cluster.killMaster(victim);
  const wentDown = await cluster.waitForState('fail', 4000).then(() => true, () => false);
  t.comment(wentDown ? 'the cluster reported down for a while' : 'the cluster never reported down');
  await cluster.waitForState('ok', 15_000);
  const masters = await cluster.masters();
  t.equal(masters.length, 3, `three masters again, the killed one replaced (${masters.map((m) => m.port).join(', ')})`);
  t.notOk(masters.some((m) => m.port === victim), 'the killed master is not among them');
  await new Promise((r) => setTimeout(r, 500));
  running = false;
  await writer;
  t.ok(writes > writesBefore + 10, `writes went on through the failover (${writesBefore} before the kill, ${writes} in all)`);

  // After the failover the bus carries events again: one more write per guild on each node reaches the other's boards.
  for (const g of guilds) {
    await toggle(nodeA, g, 0);
    await toggle(nodeB, g, 1);
  }
  for (const x of boards) {
    const h = await head(nodeA, x.g.id);
    await x.b.until(() => x.b.state.seq === h, 8000).catch(() => {});
    checkChain(t, x.b, x.label, h);
  }
  await checkFresh(t, boards);
});

t.test('a node started after the failover with every seed in REDIS_URL, the dead master first, joins the cluster and hears the others', async (t) => {
  // The product as users run it, in its own process, so a start that hangs can be ended.
  const seeds = [cluster.url, ...cluster.urls.filter((u) => u !== cluster.url)].join(',');
  const started = serveProcess(t, { REDIS_URL: seeds, DATABASE_URL: nodeA.databaseUrl, LOG_LEVEL: 'warn' });
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the node did not start within 30 s')), 30_000).unref());
  const nodeC = await Promise.race([started, timeout]);
  const [g] = await seed(nodeA, ['586000000000000001']);
  const b = openBoard(nodeC.url, { apiKey: g.key, topics: [...TOPICS] });
  t.teardown(b.close);
  await b.until(() => b.state.stats.snapshots === 1);
  await toggle(nodeA, g, 0);
  const h = await head(nodeA, g.id);
  await b.until(() => b.state.seq === h, 5000).catch(() => {});
  checkChain(t, b, 'the board on the new node', h);
});
