import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { until, wsWithCookie } from '../helpers/live.ts';
import { createLoginLink } from '../../server/auth/login-links.ts';
import { createLiveClient } from '../../client-sdk/live.ts';
import { enteredAlarms, watchAlarms } from '../../client-sdk/alarm-client.ts';
import { AlarmSessionError, redeemLink, type AlarmSession } from '../../client-sdk/alarm-session.ts';

const G = '670000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'u1', nickname: 'Anna Alpha', badge: '1', rank: 'crew' },
  { userId: 'u2', nickname: 'Bert Beta', badge: '2', rank: 'dispatch' },
]);
const key = await unscopedKey(server.sql, G);
for (const callsign of ['RTW-1', 'RTW-2']) await api('POST', '/units', { key, body: { callsign } });
const setStatus = (callsign: string, status: string) => api('PUT', `/units/${callsign}/status`, { key, body: { status } });

/** The SDK's alarm watcher on a fresh alarm session of `userId`, recording what it reports. */
async function watcher(t: { teardown(fn: () => unknown): void }, userId: string, session?: AlarmSession) {
  const s = session ?? await redeemLink(await createLoginLink(server.sql, server.url, G, userId));
  const alarms: string[][] = [];
  const notices: string[] = [];
  const w = watchAlarms({ session: s, retryDelayMs: () => 100, onAlarm: (c) => alarms.push(c), onNotice: (n) => notices.push(n) });
  t.teardown(w.close);
  const ended = w.done.then(() => null, (err: unknown) => err);
  return { session: s, alarms, notices, ended, close: w.close };
}

t.test('enteredAlarms: the callsigns not in alarm before', async (t) => {
  t.same(enteredAlarms(new Set(), ['A', 'B']), ['A', 'B'], 'at the start: every one in alarm');
  t.same(enteredAlarms(new Set(['A']), ['A', 'B']), ['B']);
  t.same(enteredAlarms(new Set(['A', 'B']), ['B']), [], 'leaving rings nothing');
});

t.test('a refused subscription is tried again after a back-off, and rings once it is taken', async (t) => {
  const session = await redeemLink(await createLoginLink(server.sql, server.url, G, 'u1'));
  // The session's 64 subscriptions (16 on each of 4 sockets) leave none for the alarm client.
  const blockers = Array.from({ length: 4 }, () => createLiveClient({ url: server.url, guildId: G, WebSocket: wsWithCookie(session.cookie) }));
  t.teardown(() => blockers.forEach((b) => b.close()));
  let started = 0;
  for (const b of blockers) {
    for (let i = 0; i < 16; i++) { // one at a time: the client would batch them into frames over the server's 10 calls
      b.trpc.me.alarm.watch.subscribe(undefined, { onStarted: () => started++ });
      await until(() => started === blockers.indexOf(b) * 16 + i + 1, `subscription ${started + 1}`);
    }
  }

  const w = await watcher(t, 'u1', session);
  await until(() => w.notices.filter((n) => /^the alarm watch failed \(at most 64 open subscriptions/.test(n)).length >= 2, 'refused, then refused again');
  t.match(w.notices.find((n) => n.startsWith('the alarm watch failed')), /subscribing again in 0\.1 s$/);
  blockers[0].close();
  await until(() => w.notices.includes('you are off duty'), 'the first state, once taken');
  await setStatus('RTW-2', '0');
  await until(() => w.alarms.length === 1, 'a ring');
  t.same(w.alarms, [['RTW-2']]);
  await setStatus('RTW-2', '2');
});

t.test('logout ends the watch with a message that says how to get a new link', async (t) => {
  const w = await watcher(t, 'u1');
  await until(() => w.notices.some((n) => /^connected to /.test(n)), 'connected');
  t.equal((await api('POST', '/auth/logout', { headers: { cookie: w.session.cookie } })).status, 200);
  const err = await w.ended as Error;
  t.ok(err instanceof AlarmSessionError, 'ends with an AlarmSessionError');
  t.match(err.message, /session has ended.*get a new link with: npx dispatch-terminal login-link --guild 670000000000000001 --user u1/);
});

t.test('a rank that loses timeclock.own.use ends the watch (403), with the reason', async (t) => {
  const w = await watcher(t, 'u2');
  await until(() => w.notices.includes('you are off duty'), 'the first state');
  t.equal((await api('PATCH', '/admin/ranks/dispatch', { key, body: { capabilities: ['timeclock.manage'] } })).status, 200);
  const err = await w.ended as Error;
  t.ok(err instanceof AlarmSessionError);
  t.match(err.message, /no longer lets this session watch alarms: .*timeclock\.own\.use/);
});

t.test('close() ends the watch quietly', async (t) => {
  const w = await watcher(t, 'u1');
  await until(() => w.notices.some((n) => /^connected to /.test(n)), 'connected');
  w.close();
  t.equal(await w.ended, null, 'done resolves');
  await new Promise((r) => setTimeout(r, 200));
  t.notOk(w.notices.some((n) => n.startsWith('connection lost')), 'closing is no lost connection');
});
