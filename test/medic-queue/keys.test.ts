/**
 * Issue 20, queue: a revoked key (401) and a scoped key (403) never empty the queue: the sync waits,
 * says `unauthorized`, retries slowly, and delivers everything once a good key is set with
 * `setApiKey`. Without any key the events are written to disk and nothing is sent.
 */
import t from 'tap';
import { request } from '../../client-sdk/game/http.ts';
import { createMedicSync, type MedicSync, type SyncStatus } from '../../client-sdk/medic/index.ts';
import { createApiKey, deleteApiKey } from '../../server/domains/apikeys/service.ts';
import { assertFlushed, compareStored, eventStream, GUILD, medicServer, queueDir, sleep, storedEvents, waitFor } from './helpers.ts';

t.test('a revoked key: the queue keeps everything, says unauthorized, and delivers all after a new key', { timeout: 60_000 }, async (t) => {
  const { server } = await medicServer(t);
  const first = await createApiKey(server.sql, GUILD, 'game', null);
  const statuses: SyncStatus[] = [];
  const logs: string[] = [];
  const sync = createMedicSync({
    baseUrl: server.url, apiKey: first.key, dir: queueDir(t), unauthorizedRetryMs: 300,
    onStatus: (s) => statuses.push(s), log: (_level, m) => logs.push(m),
  });
  t.teardown(() => sync.stop());
  const { prefix, events } = eventStream('r', 300);
  for (const e of events.slice(0, 100)) sync.enqueue(e);
  await assertFlushed(t, sync, 10_000, 'delivered with the first key');

  await deleteApiKey(server.deps, GUILD, first.id); // revoked on the board
  for (const e of events.slice(100)) sync.enqueue(e);
  t.ok(await waitFor(() => sync.status().state === 'unauthorized', 10_000), 'the status turns unauthorized');
  const requestsThen = sync.stats().requests;
  await sleep(1500);
  t.ok(sync.stats().requests > requestsThen, 'it retries (slowly: every 300 ms here, 30 s by default)');
  t.equal(sync.stats().queued, 200, 'all 200 events are still queued');
  t.equal(sync.stats().rejected + sync.stats().dropped, 0, 'nothing was dropped or rejected');
  const said = statuses.find((s) => s.state === 'unauthorized');
  t.match(said?.message, /^401 .*revoked.*all 200 events are kept/, 'the status says why and that nothing is lost');
  t.ok(logs.some((l) => l.startsWith('unauthorized: 401')), 'and so does the log');
  t.equal((await storedEvents(server.sql, prefix)).length, 100, 'the server got nothing more meanwhile');

  const second = await createApiKey(server.sql, GUILD, 'game 2', null);
  sync.setApiKey(second.key);
  await assertFlushed(t, sync, 10_000, 'a new key: everything is delivered');
  t.equal(sync.status().state, 'ok');
  const diff = compareStored(await storedEvents(server.sql, prefix), events);
  t.same(diff, { missing: [], twice: [], unexpected: [], outOfOrder: [] }, 'all 300 stored once, in order per citizen');
});

t.test('a scoped key is 403: kept and said so, like a revoked one; setApiKey resumes at once', { timeout: 30_000 }, async (t) => {
  const { server, key } = await medicServer(t);
  const scoped = await createApiKey(server.sql, GUILD, 'scoped', ['calls:call.report']);
  const sync = createMedicSync({ baseUrl: server.url, apiKey: scoped.key, dir: queueDir(t), log: () => {} }); // retry every 30 s
  t.teardown(() => sync.stop());
  const { prefix, events } = eventStream('s', 10);
  for (const e of events) sync.enqueue(e);
  t.ok(await waitFor(() => sync.status().state === 'unauthorized', 10_000), 'unauthorized');
  t.match(sync.status().message, /^403 .*unscoped key/, 'the message names the fix');
  t.equal(sync.stats().queued, 10, 'all kept');
  sync.setApiKey(key);
  await assertFlushed(t, sync, 5000, 'an unscoped key delivers them at once, not at the next 30 s retry');
  t.equal((await storedEvents(server.sql, prefix)).length, 10);
});

t.test('a key set while the refused request is in flight is tried at once, not after the 30 s retry', { timeout: 30_000 }, async (t) => {
  const { server, key } = await medicServer(t);
  const scoped = await createApiKey(server.sql, GUILD, 'scoped', ['calls:call.report']);
  let refusals = 0;
  const sync: MedicSync = createMedicSync({
    baseUrl: server.url, apiKey: scoped.key, dir: queueDir(t), log: () => {},
    request: async (url, opts) => {
      const res = await request(url, opts);
      if ((res.status === 401 || res.status === 403) && refusals++ === 0) sync.setApiKey(key); // still in flight here
      return res;
    },
  });
  t.teardown(() => sync.stop());
  const { prefix, events } = eventStream('f', 10);
  for (const e of events) sync.enqueue(e);
  await assertFlushed(t, sync, 5000, 'the new key is used as soon as the 403 comes back');
  t.equal(refusals, 1, 'one refused request');
  t.equal((await storedEvents(server.sql, prefix)).length, 10);
});

t.test('no key: enqueue writes to disk, nothing is sent, the status says why; a restart keeps them', { timeout: 30_000 }, async (t) => {
  const { server, key } = await medicServer(t);
  const dir = queueDir(t);
  const statuses: SyncStatus[] = [];
  const sync = createMedicSync({ baseUrl: server.url, apiKey: '', dir, onStatus: (s) => statuses.push(s), log: () => {} });
  const { prefix, events } = eventStream('n', 20);
  for (const e of events) sync.enqueue(e);
  t.ok(await waitFor(() => sync.status().state === 'no_key', 5000), 'status no_key');
  t.match(statuses.find((s) => s.state === 'no_key')?.message, /no API key.*kept on disk/);
  t.equal(sync.stats().requests, 0, 'no request was made');
  await sync.stop();

  const again = createMedicSync({ baseUrl: server.url, apiKey: key, dir, log: () => {} });
  t.teardown(() => again.stop());
  t.equal(again.stats().restored, 20, 'the next start finds all 20 on disk');
  await assertFlushed(t, again, 10_000, 'and sends them with its key');
  t.equal((await storedEvents(server.sql, prefix)).length, 20);
});
