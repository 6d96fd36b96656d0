import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard } from '../helpers/live.ts';
import { startRedis } from '../helpers/redis.ts';

const G = '561000000000000001';
const TOPICS = ['onDuty', 'overview', 'dispatchers', 'units', 'alarm'] as const;
const redis = await startRedis(t);
const hub = { positionCheckMs: 300, gapGraceMs: 20 };
const nodeA = await startTestServer(t, { REDIS_URL: redis.url }, { hub });
const nodeB = await startTestServer(t, { REDIS_URL: redis.url }, { databaseUrl: nodeA.databaseUrl, hub });
const people = Array.from({ length: 12 }, (_, i) => ({ userId: `u${i + 1}`, nickname: `Person ${i + 1}`, badge: String(i + 1), rank: 'crew' }));
await seedGuild(nodeA.sql, G, people);
const key = await unscopedKey(nodeA.sql, G);
const apiA = client(nodeA);
const apiB = client(nodeB);

t.test('a write on node A reaches a board on node B through Redis', async (t) => {
  // This node never polls the log on its own, so only Redis can bring it A's write in time.
  const nodeC = await startTestServer(t, { REDIS_URL: redis.url }, { databaseUrl: nodeA.databaseUrl, hub: { positionCheckMs: 60_000 } });
  const board = openBoard(nodeC.url, { apiKey: key, topics: [...TOPICS] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const res = await apiA('POST', '/admin/clock-in', { key, body: { badge: 1 } });
  t.equal(res.status, 200);
  await board.until(() => 'u1' in board.state.topics.onDuty!, 3000);
  t.pass('seen on the other node');
  await apiB('POST', '/admin/clock-out', { key, body: { badge: 1 } });
  await board.until(() => !('u1' in board.state.topics.onDuty!), 3000);
  t.equal(board.state.stats.gaps, 0);
});

t.test('Redis down for a while, writes go on: every board ends equal to a fresh snapshot, no gap', async (t) => {
  const boards = [nodeA, nodeB, nodeA, nodeB].map((n) => openBoard(n.url, { apiKey: key, topics: [...TOPICS] }));
  t.teardown(() => boards.forEach((b) => b.close()));
  await Promise.all(boards.map((b) => b.until(() => b.state.stats.snapshots === 1)));

  let writes = 0;
  let running = true;
  const writer = (async () => {
    let i = 0;
    while (running) {
      const p = people[i % people.length];
      const api = i % 2 ? apiA : apiB;
      const on = await api('POST', '/admin/clock-in', { key, body: { badge: p.badge } });
      if (on.status === 200) writes++;
      const off = await api('POST', '/admin/clock-out', { key, body: { badge: p.badge } });
      if (off.status === 200) writes++;
      i++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();

  await new Promise((r) => setTimeout(r, 400));
  await redis.kill();
  await new Promise((r) => setTimeout(r, 2500));
  await redis.start();
  await new Promise((r) => setTimeout(r, 800));
  running = false;
  await writer;
  // one more write after the outage, on each node
  await apiA('POST', '/admin/clock-in', { key, body: { badge: 11 } });
  await apiB('POST', '/admin/clock-in', { key, body: { badge: 12 } });
  t.ok(writes > 20, `writes went on during the outage (${writes})`);

  const [head] = await nodeA.sql`select seq::int from event_streams where guild_id = ${G}`;
  await Promise.all(boards.map((b) => b.until(() => b.state.seq === head.seq, 5000)));
  for (const [i, n] of [nodeA, nodeB].entries()) {
    const fresh = openBoard(n.url, { apiKey: key, topics: [...TOPICS] });
    t.teardown(fresh.close);
    await fresh.until(() => fresh.state.stats.snapshots === 1 && fresh.state.seq === head.seq);
    for (const [j, b] of boards.entries()) {
      if (j % 2 !== i) continue;
      t.same(b.state.topics, fresh.state.topics, `board ${j} equals a fresh snapshot of node ${i ? 'B' : 'A'}`);
      t.equal(b.state.stats.gaps, 0, `board ${j}: no sequence gap`);
      t.equal(b.state.stats.snapshots, 1, `board ${j}: never needed a second snapshot`);
    }
  }
});
