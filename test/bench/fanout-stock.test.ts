import t from 'tap';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import { stockBoard } from '../../bench/lib/fanout-stock.ts';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { rawSocket, watchFrame } from '../helpers/raw-ws.ts';

// The fan-out benchmark's reference (a board procedure written the way a tRPC user writes one, on
// tRPC's own applyWSSHandler) must serve a board exactly what the hub serves it: the same snapshot,
// then for a REST write the same delta frame under the same tracked id. Otherwise its ratio measures
// a different job.

const G = '567000000000000001';
const TOPICS = ['units', 'alarm', 'onDuty', 'dispatchers'];
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G);
const key = await unscopedKey(server.sql, G);
for (const callsign of ['RTW-1', 'RTW-2']) {
  await server.sql`insert into units (guild_id, callsign, label, org_unit, status) values (${G}, ${callsign}, ${callsign}, 'RW Nord', '2')`;
}

const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
await once(wss, 'listening');
const stock = stockBoard(server.deps);
const handler = applyWSSHandler({ wss, router: stock.router, createContext: ({ info }) => stock.createContext(info.connectionParams?.authorization) });
t.teardown(async () => {
  handler.broadcastReconnectNotification();
  for (const c of wss.clients) c.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  stock.close();
});
const stockUrl = `http://127.0.0.1:${(wss.address() as AddressInfo).port}`;

/** The tracked data frames (`result.id`, `result.data`) a socket received, in order. */
const dataFrames = (messages: any[]) => messages.filter((m) => m?.result?.type === 'data').map((m) => ({ id: m.result.id, data: m.result.data }));

t.test('the stock board sends the hub\'s snapshot and, for a REST status write, the hub\'s delta', async (t) => {
  const params = { authorization: `Bearer ${key}` };
  const hub = await rawSocket(server.url, { params });
  const ref = await rawSocket(stockUrl, { params });
  t.teardown(() => {
    hub.ws.close();
    ref.ws.close();
  });
  for (const s of [hub, ref]) s.send(watchFrame(1, TOPICS));
  for (const s of [hub, ref]) await s.until((ms) => dataFrames(ms).length === 1);
  const [hubSnap] = dataFrames(hub.messages);
  const [refSnap] = dataFrames(ref.messages);
  t.equal(refSnap.id, hubSnap.id, 'same tracked id');
  t.same({ ...refSnap.data.json.data, at: 0 }, { ...hubSnap.data.json.data, at: 0 }, 'same snapshot (but its time)');
  t.match(hubSnap.data.json.data.topics.units, { 'RTW-1': { status: '2' } }, 'the snapshot has the units');

  const res = await api('PUT', '/api/v1/units/RTW-1/status', { key, body: { status: '6' } });
  t.equal(res.status, 200, 'the write is answered');
  for (const s of [hub, ref]) await s.until((ms) => dataFrames(ms).length === 2);
  const hubDelta = dataFrames(hub.messages)[1];
  const refDelta = dataFrames(ref.messages)[1];
  t.equal(refDelta.id, hubDelta.id, 'same tracked id');
  t.same(refDelta.data, hubDelta.data, 'same delta, byte for byte as data');
  t.match(hubDelta.data.json.data, { kind: 'delta', prev: hubSnap.data.json.data.seq, topics: { units: [{ key: 'RTW-1', value: { status: '6' } }] } });
});

t.test('the stock board refuses a connection without an API key', async (t) => {
  const s = await rawSocket(stockUrl, { params: {} });
  t.teardown(() => s.ws.close());
  s.send(watchFrame(1, TOPICS));
  const answer = await s.next((m) => m?.error);
  t.match(answer, { id: 1, error: { json: { data: { code: 'UNAUTHORIZED' } } } });
});
