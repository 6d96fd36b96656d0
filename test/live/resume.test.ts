import t from 'tap';
import WebSocket from 'ws';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard, recordedSockets } from '../helpers/live.ts';
import { createLiveClient } from '../../client-sdk/live.ts';
import { inGuildTx } from '../../server/store/tx.ts';
import type { LiveFrame } from '../../contract/frames.ts';
import { GuildHub } from '../../server/hub/guild-hub.ts';
import { resumeFrames } from '../../server/hub/watch.ts';
import { createLog } from '../../server/core/log.ts';

const G = '562000000000000001';
const TOPICS = ['onDuty', 'overview', 'dispatchers', 'alarm'] as const;
const server = await startTestServer(t, { WS_MAX_BACKPRESSURE: '16384' }, { hub: { ringSize: 64 } });
const api = client(server);
await seedGuild(server.sql, G, Array.from({ length: 8 }, (_, i) => ({ userId: `u${i + 1}`, nickname: `P${i + 1}`, badge: String(i + 1), rank: 'crew' })));
const key = await unscopedKey(server.sql, G);

async function toggle(badge: number, times: number) {
  for (let i = 0; i < times; i++) {
    await api('POST', '/admin/clock-in', { key, body: { badge } });
    await api('POST', '/admin/clock-out', { key, body: { badge } });
  }
}

/**
 * Subscribes once with `lastEventId` and collects what arrives: the first frame (waited for up to
 * 10 s on a loaded box; `expectNone` skips that wait), then whatever follows within `ms`.
 */
async function resumeWith(lastEventId: string | null, ms = 400, expectNone = false): Promise<{ id: string; frame: LiveFrame }[]> {
  const c = createLiveClient({ url: server.url, apiKey: key, WebSocket });
  const got: { id: string; frame: LiveFrame }[] = [];
  const sub = c.trpc.live.watch.subscribe({ topics: [...TOPICS], lastEventId }, { onData: ({ id, data }) => got.push({ id, frame: data as LiveFrame }) });
  for (const start = Date.now(); !expectNone && got.length === 0 && Date.now() - start < 10_000;) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, ms));
  sub.unsubscribe();
  c.close();
  return got;
}

t.test('resume gets exactly the missed deltas, in order, no duplicates', async (t) => {
  const first = await resumeWith(null);
  t.equal(first.length, 1);
  t.equal(first[0].frame.kind, 'snapshot');
  const last = first[0].id;
  await toggle(1, 3); // 6 events
  const resumed = await resumeWith(last);
  t.same(resumed.map((r) => r.frame.kind), Array(6).fill('delta'), 'six deltas, no snapshot');
  const seqs = resumed.map((r) => r.frame.seq);
  t.same(seqs, Array.from({ length: 6 }, (_, i) => first[0].frame.seq + 1 + i), 'consecutive seqs after the last seen one');
  t.equal((resumed[0].frame as { prev: number }).prev, first[0].frame.seq, 'first delta continues the chain');
  const upToDate = await resumeWith(resumed.at(-1)!.id, 400, true);
  t.same(upToDate, [], 'nothing to send when the client is at the head');
});

t.test('a resume older than the ring gets one snapshot, marked as such', async (t) => {
  const [snap] = await resumeWith(null);
  await toggle(2, 40); // 80 events > ring of 64
  const resumed = await resumeWith(snap.id);
  t.equal(resumed.length, 1);
  t.equal(resumed[0].frame.kind, 'snapshot');
  t.same(resumed[0].frame.topics.onDuty, {});
  const foreign = await resumeWith('zzzz.5');
  t.equal(foreign[0].frame.kind, 'snapshot', 'an id of another epoch gets a snapshot');
  const garbage = await resumeWith('not-an-id');
  t.equal(garbage[0].frame.kind, 'snapshot', 'a malformed id gets a snapshot');
});

t.test('the real client reconnects after the server drops it and resumes without a gap', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: [...TOPICS], retryDelayMs: () => 300 });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  server.ws.shutdown(); // every socket gets the reconnect notice and is closed
  await toggle(3, 2);
  await api('POST', '/admin/clock-in', { key, body: { badge: 4 } });
  await board.until(() => 'u4' in board.state.topics.onDuty!);
  t.equal(board.state.stats.snapshots, 1, 'resumed from the ring, no second snapshot');
  t.equal(board.state.stats.gaps, 0);
  t.equal(board.state.stats.duplicates, 0);
  await api('POST', '/admin/clock-out', { key, body: { badge: 4 } });
});

t.test('a client that stops reading is cut off, memory stays bounded, and it resumes', async (t) => {
  const { WebSocket: Recorded, sockets } = recordedSockets();
  const slow = openBoard(server.url, { apiKey: key, topics: ['units'], WebSocket: Recorded, retryDelayMs: () => 100 });
  t.teardown(slow.close);
  await slow.until(() => slow.state.stats.snapshots === 1);
  const connectionsBefore = server.ws.connections;
  (sockets[0] as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();

  // 24 KB deltas: far past the 16 KB backpressure limit and the kernel's socket buffers
  const pad = 'x'.repeat(24 * 1024);
  for (let i = 0; i < 400 && server.ws.connections >= connectionsBefore; i++) {
    await inGuildTx(server.deps.db, server.deps.bus, G, async (tx) => tx.emit('units', { op: 'upsert', key: `U${i % 5}`, value: { callsign: `U${i % 5}`, pad, i } }));
  }
  t.ok(server.ws.connections < connectionsBefore, 'the server closed the socket that stopped reading');
  const rss = process.memoryUsage().rss;
  (sockets[0] as unknown as { _socket: { resume(): void } })._socket.resume();

  const [head] = await server.sql`select seq::int from event_streams where guild_id = ${G}`;
  await slow.until(() => slow.state.seq === head.seq, 10_000);
  t.ok(sockets.length >= 2, 'the client opened a new socket');
  t.equal(slow.state.stats.gaps, 0, 'no gap after the resume');
  const fresh = openBoard(server.url, { apiKey: key, topics: ['units'] });
  t.teardown(fresh.close);
  await fresh.until(() => fresh.state.seq === head.seq);
  t.same(slow.state.topics, fresh.state.topics, 'the slow board ends equal to a fresh snapshot');
  t.ok(process.memoryUsage().rss - rss < 64 * 1024 * 1024, 'no runaway memory while it was stalled');
});

t.test('a node that starts (a restart) resumes clients from the event log it read at start, not with a snapshot', async (t) => {
  const [snap] = await resumeWith(null);
  await toggle(3, 5); // 10 events the client missed while "its node restarted"
  // A new hub for the guild, as a restarted node makes it: its ring is the log's newest events.
  const restarted = new GuildHub(G, server.deps.db, createLog('silent'), { ringSize: 64, gapGraceMs: 30 });
  await restarted.ready;
  const seqs = restarted.ring.map((e) => e.seq);
  t.equal(seqs.at(-1), restarted.head, 'the ring ends at the head');
  t.same(seqs, Array.from({ length: seqs.length }, (_, i) => restarted.head - seqs.length + 1 + i), 'contiguous');
  t.equal(seqs.length, 64, 'as many as the ring holds (the log has more)');
  const frames = resumeFrames(restarted, { topics: [...TOPICS], overview: null }, snap.id);
  t.same(frames.map((f) => f.kind), Array(10).fill('delta'), 'the ten missed events as deltas');
  t.same(frames.map((f) => f.seq), Array.from({ length: 10 }, (_, i) => snap.frame.seq + 1 + i));
  const tooOld = resumeFrames(restarted, { topics: [...TOPICS], overview: null }, `${restarted.epoch}.1`);
  t.same(tooOld.map((f) => f.kind), ['snapshot'], 'older than the ring: a snapshot');
});
