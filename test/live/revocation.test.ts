/**
 * Issue 27, item 5: a credential revoked on node A while Redis is down must not keep working on
 * node B's open sockets. Two nodes on one database with a real Redis: a mutation over B's socket
 * is refused (401) within a few seconds and the socket closed 4401 however long Redis stays down;
 * and a socket that only listens is closed as soon as B's bus reconnects (its recheck after a
 * resync), not at the next periodic check (`WS_REVALIDATE_MS`, 60 s by default).
 */
import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { rawSocket, watchFrame } from '../helpers/raw-ws.ts';
import { startRedis } from '../helpers/redis.ts';
import { until } from '../helpers/live.ts';

const G = '527000000000000001';
const redis = await startRedis(t);
const nodeA = await startTestServer(t, { REDIS_URL: redis.url });
const nodeB = await startTestServer(t, { REDIS_URL: redis.url }, { databaseUrl: nodeA.databaseUrl });
await seedGuild(nodeA.sql, G, [{ userId: 'u1', nickname: 'Ada', badge: '1', rank: 'crew' }]);
const admin = await unscopedKey(nodeA.sql, G, 'admin');
const apiA = client(nodeA);

/** Deletes the key named `name` through node A (as an admin would on the board). */
async function deleteKeyOnA(name: string) {
  const list = await apiA('GET', '/admin/apikeys', { key: admin });
  const id = list.body.keys.find((k: { name: string }) => k.name === name).id;
  const res = await apiA('DELETE', `/admin/apikeys/${id}`, { key: admin });
  if (res.status !== 200) throw new Error(`delete: ${res.status} ${res.text}`);
}

const report = (id: number) => ({ id, method: 'mutation', params: { path: 'calls.report', input: { json: { externalId: 'rev-1', title: 'Brand' } } } });

t.test('a key deleted on A while Redis is down: its next mutation on B is refused within seconds and the socket closed 4401', async (t) => {
  const victim = await unscopedKey(nodeA.sql, G, 'victim');
  const s = await rawSocket(nodeB.url, { params: { authorization: `Bearer ${victim}` } });
  t.teardown(() => s.ws.close());
  s.send(report(1));
  t.match(await s.next((m) => m.id === 1), { result: { type: 'data' } }, 'the key works on B');

  await redis.kill();
  await deleteKeyOnA('victim');
  const deletedAt = Date.now();
  let id = 2;
  let refusal: any = null;
  while (!refusal && Date.now() - deletedAt < 10_000 && !s.closed) {
    s.send(report(id));
    const answer = await s.next((m) => m.id === id, 5000);
    if (answer.error) refusal = answer;
    id++;
    await new Promise((r) => setTimeout(r, 200));
  }
  const accepted = s.messages.filter((m) => m.id > 1 && m.result).length;
  t.ok(refusal, `a mutation was refused while Redis is down (${accepted} accepted in ${Date.now() - deletedAt} ms after the delete)`);
  t.equal(refusal?.error.json.data.code, 'UNAUTHORIZED', 'refused as 401');
  t.ok(Date.now() - deletedAt < 8_000, 'within a few seconds (the per-node credential cache lives 5 s)');
  const close = await Promise.race([s.closedP, new Promise<null>((r) => setTimeout(() => r(null), 2000))]);
  t.equal(close?.code, 4401, 'and the socket is closed 4401');
  await redis.start();
});

t.test('a session logged out on A while Redis is down: its next query on B is refused and the socket closed 4401', async (t) => {
  const session = await signIn(nodeA, G, 'u1');
  const s = await rawSocket(nodeB.url, { headers: { cookie: session.cookie }, params: { guildId: G } });
  t.teardown(() => s.ws.close());
  s.send({ id: 1, method: 'query', params: { path: 'preferences.get' } });
  t.match(await s.next((m) => m.id === 1), { result: { type: 'data' } }, 'the session works on B');

  await redis.kill();
  const out = await apiA('POST', '/auth/logout', { session });
  t.equal(out.status, 200);
  const loggedOutAt = Date.now();
  let id = 2;
  while (!s.closed && Date.now() - loggedOutAt < 10_000) {
    s.send({ id, method: 'query', params: { path: 'preferences.get' } });
    await s.next((m) => m.id === id, 5000).catch(() => null);
    id++;
    await new Promise((r) => setTimeout(r, 200));
  }
  const last = s.messages.filter((m) => m.id > 1).at(-1);
  t.equal(last?.error?.json.data.code, 'UNAUTHORIZED', 'the last call was refused as 401');
  t.equal(s.closed?.code, 4401, `the socket closed 4401 within ${Date.now() - loggedOutAt} ms`);
  await redis.start();
});

t.test('a key deleted while Redis is down: a socket that only listens is closed 4401 as soon as B hears Redis again', async (t) => {
  const listener = await unscopedKey(nodeA.sql, G, 'listener');
  const s = await rawSocket(nodeB.url, { params: { authorization: `Bearer ${listener}` } });
  t.teardown(() => s.ws.close());
  s.send(watchFrame(1, ['onDuty']));
  await s.next((m) => m.id === 1 && m.result?.type === 'data');

  await redis.kill();
  await deleteKeyOnA('listener');
  await new Promise((r) => setTimeout(r, 1000));
  t.equal(s.closed, null, 'no call, no bus: the listener is still open while Redis is down');
  await redis.start();
  const back = Date.now();
  await until(() => s.closed !== null, 'the listener closed after the reconnect', 6000);
  t.equal(s.closed!.code, 4401, `closed 4401, ${Date.now() - back} ms after Redis came back`);
});
