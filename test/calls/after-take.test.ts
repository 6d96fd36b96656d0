import t, { type Test } from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { client, startTestServer, type ApiResponse } from '../helpers/server.ts';
import { assertError, seedGuild, signIn } from '../helpers/fixtures.ts';
import { openBoard } from '../helpers/live.ts';
import { insertRank } from '../../server/domains/people/store.ts';
import { createApiKey } from '../../server/domains/apikeys/service.ts';

// What a game script sees on a live evening once a dispatcher has taken its call: resolving it,
// reporting it again, who is named as having done what, and the races of reports with takes and closes.
const G = '577000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [{ userId: 'd1', nickname: 'Dora Dispatch' }, { userId: 'd2', nickname: 'Otto Offdienst' }]);
await insertRank(server.sql, G, {
  id: 'leitstelle', name: 'Leitstelle', position: 5,
  capabilities: ['dispatch.view', 'dispatch.manage', 'incidents.manage', 'timeclock.own.use'],
});
await server.sql`update people set rank_id = 'leitstelle' where guild_id = ${G}`;
const board = await createApiKey(server.sql, G, 'Leitstelle Nord', null); // the board's own key
const game = await createApiKey(server.sql, G, 'qb-dispatch', ['calls:call.report']); // the game resource
const key = board.key;
await api('PUT', '/admin/call-rate-limit', { key, body: { perMinute: 6000, burst: 1000 } });
const dora = await signIn(server, G, 'd1');
const otto = await signIn(server, G, 'd2');
if ((await api('POST', '/me/clock-in', { session: dora, body: {} })).status !== 200) throw new Error('set-up: clock-in failed');

const gameBy = { kind: 'key', id: game.id, name: 'qb-dispatch' };
const doraBy = { kind: 'session', id: 'd1', name: 'Dora Dispatch' };
const report = (externalId: string, extra: object = {}) =>
  api('POST', '/integrations/ingame/calls', { key: game.key, body: { externalId, title: 'Herzinfarkt', ...extra } });
const resolve = (externalId: string, resolution = 'reached') =>
  api('POST', `/integrations/ingame/calls/${encodeURIComponent(externalId)}/resolve`, { key: game.key, body: { resolution } });
const take = (externalId: string, session?: typeof dora) =>
  api('POST', `/calls/${encodeURIComponent(externalId)}/take`, session ? { session, body: {} } : { key });
const closeSheet = (number: number) => api('POST', `/incidents/${number}/close`, { key });
const sheet = async (number: number) => (await api('GET', `/incidents/${number}`, { key })).body;
const openListed = async (externalId: string) =>
  (await api('GET', '/calls', { key })).body.calls.filter((c: any) => c.externalId === externalId);
const callRows = async (externalId: string) =>
  (await server.sql`select status, report_count from calls where guild_id = ${G} and external_id = ${externalId} order by id`)
    .map((r) => `${r.status}:${r.report_count}`);
const counts = async () => (await server.sql`select
    (select count(*)::int from events where guild_id = ${G}) as events,
    (select count(*)::int from audit_log where guild_id = ${G}) as audits,
    (select count(*)::int from incident_entries where guild_id = ${G}) as entries`)[0];
/** Reports `externalId` and takes it; returns the take's answer. */
async function taken(externalId: string, extra: object = {}, session?: typeof dora) {
  if ((await report(externalId, extra)).status !== 200) throw new Error('set-up: report failed');
  const res = await take(externalId, session);
  if (res.status !== 200) throw new Error(`set-up: take failed: ${res.text}`);
  return res.body as { call: any; incident: any };
}

/** A board on the call topics, and the delta frames it received after `mark()`. */
async function watchBoard(t: Test) {
  const b = openBoard(server.url, { apiKey: key, topics: ['calls', 'overview', 'einsatzEntries'] });
  t.teardown(b.close);
  await b.until(() => b.state.stats.snapshots === 1);
  let from = b.frames.length;
  const since = () => b.frames.slice(from).filter((f) => f.kind === 'delta').map((f) => f.topics as Record<string, any[]>);
  return { b, since, mark: () => { from = b.frames.length; } };
}
const asLiveEntry = (e: any) => ({ ...e, at: Date.parse(e.at) });

t.test('resolving a taken call: 200, recorded on the call, and a resolved entry on its open sheet', async (t) => {
  const { call, incident } = await taken('qb:1', {}, dora);
  const { b, since } = await watchBoard(t);
  const openBefore = b.state.topics.overview!.openCalls;
  const before = Date.now();
  const res = await resolve('qb:1');
  t.equal(res.status, 200);
  t.same(res.body, {
    ...call, status: 'resolved', resolution: 'reached', resolvedAt: res.body.resolvedAt, updatedAt: res.body.updatedAt,
  }, 'the taken call, resolved: takenAt, takenBy and incidentNumber stay');
  t.equal(res.body.takenBy.name, 'Dora Dispatch');
  t.ok(Math.abs(Date.parse(res.body.resolvedAt) - before) < 10_000, 'resolvedAt is now');

  const after = await sheet(incident.number);
  t.match(after, { state: 'open', version: incident.version, keyword: incident.keyword }, 'the sheet itself does not change');
  t.equal(after.entries.length, 2);
  t.match(after.entries[1], { kind: 'resolved', number: incident.number, text: 'Meldung qb:1 vom Spiel abgeschlossen: reached', by: gameBy });

  await b.until(() => since().some((f) => f.einsatzEntries));
  t.same(since(), [{ einsatzEntries: [{ op: 'entry', number: incident.number, entry: asLiveEntry(after.entries[1]) }] }],
    'the board gets the entry notice, and nothing on calls or overview (the call was not open)');
  t.equal(b.state.topics.overview!.openCalls, openBefore);
  const [audit] = await server.sql`select actor_kind, actor_id, data from audit_log where guild_id = ${G} and action = 'calls.resolve'`;
  t.same({ ...audit }, { actor_kind: 'key', actor_id: game.id, data: { externalId: 'qb:1', callId: call.id, resolution: 'reached', incidentNumber: incident.number } });
});

t.test('resolving it again (the game\'s retry queue): 200 with the call as stored, nothing written; never reported: 404', async (t) => {
  const stored = (await api('GET', `/incidents/1`, { key })).body;
  const first = await server.sql`select * from calls where guild_id = ${G} and external_id = 'qb:1'`;
  const before = await counts();
  for (const resolution of ['reached', 'something else']) {
    const res = await resolve('qb:1', resolution);
    t.equal(res.status, 200, `retry with ${resolution}`);
    t.match(res.body, { externalId: 'qb:1', status: 'resolved', resolution: 'reached', takenBy: doraBy, incidentNumber: 1 });
  }
  t.same(await counts(), before, 'no event, no audit row, no entry');
  t.same(await server.sql`select * from calls where guild_id = ${G} and external_id = 'qb:1'`, first, 'the call row is untouched');
  t.same(await sheet(1), stored);
  assertError(t, await resolve('qb:never'), 404, 'never reported', /no call with externalId qb:never/);
});

t.test('resolving a taken call whose sheet is closed: on the call only; the closed sheet stays as it was', async (t) => {
  const { call, incident } = await taken('qb:2');
  t.equal((await api('POST', `/incidents/${incident.number}/close`, { session: dora })).status, 200);
  const closed = await sheet(incident.number);
  const before = await counts();
  const res = await resolve('qb:2', 'abgebrochen');
  t.equal(res.status, 200);
  t.match(res.body, { id: call.id, status: 'resolved', resolution: 'abgebrochen', takenAt: call.takenAt, incidentNumber: incident.number });
  t.same(await sheet(incident.number), closed, 'closed sheets are read-only');
  t.same(await counts(), { ...before, audits: before.audits + 1 }, 'only the audit row: no event, no entry');
});

t.test('a re-report of a taken call while its sheet is open: the same call, updated and counted, and a report entry', async (t) => {
  const { call, incident } = await taken('qb:3', {
    message: 'Person bewusstlos', location: 'Grove Street', caller: { name: 'Lamar', phone: '555-0101' }, source: 'gcphone',
  }, dora);
  const { b, since, mark } = await watchBoard(t);
  const openBefore = b.state.topics.overview!.openCalls;

  const res = await report('qb:3', { title: 'Herzinfarkt – Reanimation', message: 'Person atmet nicht', priority: 1 });
  t.equal(res.status, 200);
  t.same(res.body, {
    ...call, title: 'Herzinfarkt – Reanimation', message: 'Person atmet nicht', priority: 1, reportCount: 2, updatedAt: res.body.updatedAt,
  }, 'sent fields replace, left-out fields keep; still taken, by the same dispatcher, on the same sheet');
  t.match(res.body, { id: call.id, status: 'taken', location: 'Grove Street', caller: { name: 'Lamar' }, takenBy: doraBy, incidentNumber: incident.number });
  t.same(await openListed('qb:3'), [], 'not listed as open');

  let s = await sheet(incident.number);
  t.match(s, { state: 'open', version: 1, keyword: 'Herzinfarkt', priority: 2 }, 'the sheet stays as the dispatcher has it');
  t.match(s.entries.at(-1), { kind: 'report', text: 'Erneute Meldung (2.): Herzinfarkt – Reanimation – Person atmet nicht', by: gameBy });
  await b.until(() => since().some((f) => f.einsatzEntries));
  t.same(since(), [{ einsatzEntries: [{ op: 'entry', number: incident.number, entry: asLiveEntry(s.entries.at(-1)) }] }],
    'the board gets the entry notice; nothing on calls, nothing on overview');
  t.equal(b.state.topics.overview!.openCalls, openBefore);
  t.notOk('qb:3' in b.state.topics.calls!);

  mark();
  const third = await report('qb:3', { title: 'Herzinfarkt – Reanimation' });
  t.match(third.body, { id: call.id, status: 'taken', reportCount: 3, message: 'Person atmet nicht', priority: 1 });
  s = await sheet(incident.number);
  t.same(s.entries.map((e: any) => e.kind), ['created', 'report', 'report']);
  t.equal(s.entries.at(-1).text, 'Erneute Meldung (3.): Herzinfarkt – Reanimation', 'without a message: the title alone');
  await b.until(() => since().some((f) => f.einsatzEntries));
  t.same(since().flatMap((f) => Object.keys(f)), ['einsatzEntries']);
});

t.test('after the sheet is closed, a report of the id opens a new call; the closed sheet gets nothing', async (t) => {
  t.equal((await api('POST', '/incidents/3/close', { session: dora })).status, 200);
  const closed = await sheet(3);
  const { b, since } = await watchBoard(t);
  const openBefore = b.state.topics.overview!.openCalls as number;
  const res = await report('qb:3', { message: 'schon wieder' });
  t.equal(res.status, 200);
  t.match(res.body, { status: 'open', reportCount: 1, takenAt: null, takenBy: null, incidentNumber: null, message: 'schon wieder' });
  const old = (await server.sql`select id::text from calls where guild_id = ${G} and external_id = 'qb:3' order by id`)[0].id;
  t.not(res.body.id, old, 'a new call');
  t.same(await sheet(3), closed);
  t.same((await openListed('qb:3')).map((c: any) => c.id), [res.body.id]);
  await b.until(() => 'qb:3' in b.state.topics.calls!);
  t.equal(b.state.topics.overview!.openCalls, openBefore + 1);
  t.notOk(since().some((f) => f.einsatzEntries), 'no entry notice');
});

t.test('an API key is named by its name: takenBy, createdBy and the timeline\'s by', async (t) => {
  const keyBy = { kind: 'key', id: board.id, name: 'Leitstelle Nord' };
  const { call, incident } = await taken('qb:4');
  t.same(call.takenBy, keyBy);
  t.same(incident.createdBy, keyBy);
  t.same(incident.entries[0].by, keyBy);
  const stored = await sheet(incident.number);
  t.same([stored.createdBy, stored.entries[0].by], [keyBy, keyBy], 'as stored');
  const byHand = await api('POST', '/incidents', { key, body: { keyword: 'Brand' } });
  t.same([byHand.body.createdBy, byHand.body.entries[0].by], [keyBy, keyBy]);
  const note = await api('POST', `/incidents/${byHand.body.number}/entries`, { key, body: { text: 'Lage unklar' } });
  t.same(note.body.by, keyBy);
  const patched = await api('PATCH', `/incidents/${byHand.body.number}`, { key, body: { version: 1, priority: 1 } });
  t.same(patched.body.entries.at(-1).by, keyBy);
});

t.test('taking a call needs the session\'s person on duty: 409 off duty, nothing changes; keys need not', async (t) => {
  await report('qb:off');
  const before = await counts();
  const res = await take('qb:off', otto);
  assertError(t, res, 409, 'off duty', /^you are off duty: clock in before taking a call$/);
  t.same(await counts(), before, 'no event, no audit, no sheet entry');
  t.equal((await openListed('qb:off')).length, 1, 'still open');
  assertError(t, await take('qb:unknown', otto), 409, 'off duty comes first, also for an unknown id', /off duty/);

  t.equal((await api('POST', '/me/clock-in', { session: otto, body: {} })).status, 200);
  const onDuty = await take('qb:off', otto);
  t.equal(onDuty.status, 200, 'clocked in: taken');
  t.match(onDuty.body.call.takenBy, { kind: 'session', id: 'd2', name: 'Otto Offdienst' });
  t.equal((await api('POST', '/me/clock-out', { session: otto, body: {} })).status, 200);
  await report('qb:off2');
  assertError(t, await take('qb:off2', otto), 409, 'clocked out again', /off duty/);
  t.equal((await take('qb:off2')).status, 200, 'an API key has no shift and needs none');
});

// ---- Races, forced into each order: a test transaction holds a row the contenders need, they queue
// behind it (seen in pg_stat_activity), and PostgreSQL grants the lock in queue order on release.

/** Holds the lock `lock` takes in a transaction of its own until the returned release is called. */
async function holding(lock: (tx: any) => Promise<unknown>) {
  let release!: () => void;
  let locked!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const isLocked = new Promise<void>((r) => (locked = r));
  const done = server.sql.begin(async (tx) => { await lock(tx); locked(); await released; });
  await isLocked;
  return async () => { release(); await done; };
}
/** Waits until `n` backends of this database wait for a lock. */
async function queued(n: number) {
  for (let i = 0; i < 500; i++) {
    const [row] = await server.sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
    if (row.n >= n) return;
    await sleep(10);
  }
  throw new Error(`${n} lock waiters expected`);
}
const lockCall = (externalId: string) => (tx: any) => tx`select 1 from calls where guild_id = ${G} and external_id = ${externalId} and status = 'open' for update`;
const lockSheet = (number: number) => (tx: any) => tx`select 1 from incidents where guild_id = ${G} and number = ${number} for update`;

/**
 * Two requests queued behind a held `lock`, the one named `first` first (each seen waiting before the
 * next is sent), then let go together; answers each by its name.
 */
async function race<K extends string>(lock: (tx: any) => Promise<unknown>, first: K, requests: Record<K, () => Promise<ApiResponse>>): Promise<Record<K, ApiResponse>> {
  const order = [first, ...(Object.keys(requests) as K[]).filter((name) => name !== first)];
  const release = await holding(lock);
  const answers: Promise<ApiResponse>[] = [];
  for (const [i, name] of order.entries()) {
    answers.push(requests[name]());
    await queued(i + 1);
  }
  await release();
  const settled = await Promise.all(answers);
  return Object.fromEntries(order.map((name, i) => [name, settled[i]])) as Record<K, ApiResponse>;
}

t.test('a report and a take of one call in either order: one call, taken, with both reports; nothing left open', async (t) => {
  for (const first of ['take', 'report'] as const) {
    const id = `race:take-${first}`;
    await report(id);
    const { take: tk, report: rep } = await race(lockCall(id), first, { take: () => take(id), report: () => report(id, { message: 'zweite' }) });
    t.equal(tk.status, 200, `${first} first: take`);
    t.equal(rep.status, 200, `${first} first: report`);
    t.same(await callRows(id), ['taken:2'], `${first} first: one call with both reports`);
    t.same(await openListed(id), []);
    const entries = (await sheet(tk.body.incident.number)).entries.map((e: any) => e.kind);
    t.same(entries, first === 'take' ? ['created', 'report'] : ['created'], 'a report after the take is on the sheet');
  }
});

t.test('a report and the close of its sheet in either order: the entry before the close, or a new call; never an entry on a closed sheet', async (t) => {
  for (const first of ['report', 'close'] as const) {
    const id = `race:close-${first}`;
    const { incident } = await taken(id);
    const { report: rep, close } = await race(lockSheet(incident.number), first, { report: () => report(id), close: () => closeSheet(incident.number) });
    t.equal(rep.status, 200, `${first} first: report`);
    t.equal(close.status, 200, `${first} first: close`);
    const kinds = (await sheet(incident.number)).entries.map((e: any) => e.kind);
    if (first === 'report') {
      t.same(kinds, ['created', 'report', 'closed'], 'report first: its entry, then the close');
      t.same(await callRows(id), ['taken:2']);
      t.match(rep.body, { status: 'taken', incidentNumber: incident.number });
    } else {
      t.same(kinds, ['created', 'closed'], 'close first: nothing after it');
      t.same(await callRows(id), ['taken:1', 'open:1'], 'the report opened a new call');
      t.same((await openListed(id)).map((c: any) => c.id), [rep.body.id]);
    }
  }
});

t.test('a resolve and the close of its sheet in either order: resolved either way, its entry only before the close', async (t) => {
  for (const first of ['resolve', 'close'] as const) {
    const id = `race:resolve-${first}`;
    const { incident } = await taken(id);
    const { resolve: res, close } = await race(lockSheet(incident.number), first, { resolve: () => resolve(id), close: () => closeSheet(incident.number) });
    t.equal(res.status, 200, `${first} first: resolve`);
    t.equal(close.status, 200, `${first} first: close`);
    t.same(await callRows(id), ['resolved:1']);
    t.same((await sheet(incident.number)).entries.map((e: any) => e.kind), first === 'resolve' ? ['created', 'resolved', 'closed'] : ['created', 'closed']);
  }
});

t.test('unforced: concurrent re-reports all land on the taken call, counted without gaps; with a close among them, nothing follows the close', async (t) => {
  const { call, incident } = await taken('race:burst');
  const burst = await Promise.all(Array.from({ length: 10 }, () => report('race:burst')));
  t.same(burst.map((r) => `${r.status} ${r.body.id}`), Array(10).fill(`200 ${call.id}`), 'ten answers, all the taken call');
  t.same(burst.map((r) => r.body.reportCount).sort((x, y) => x - y), [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  t.same(await callRows('race:burst'), ['taken:11']);
  t.same((await sheet(incident.number)).entries.filter((e: any) => e.kind === 'report').map((e: any) => e.text),
    Array.from({ length: 10 }, (_, i) => `Erneute Meldung (${i + 2}.): Herzinfarkt`));

  for (let round = 0; round < 5; round++) {
    const id = `race:many-${round}`;
    const { call, incident } = await taken(id);
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => report(id)),
      closeSheet(incident.number),
    ]);
    t.same(results.map((r) => r.status), [200, 200, 200, 200, 200], `round ${round}`);
    const entries = (await sheet(incident.number)).entries;
    const kinds = entries.map((e: any) => e.kind);
    t.equal(kinds.at(-1), 'closed', 'nothing after the close');
    const reports = entries.filter((e: any) => e.kind === 'report').map((e: any) => e.text);
    t.same(reports, reports.map((_: string, i: number) => `Erneute Meldung (${i + 2}.): Herzinfarkt`), 'counted 2., 3., … without gaps');
    const onTaken = results.slice(0, 4).filter((r) => r.body.id === call.id).length;
    t.equal(onTaken, reports.length, 'each report on the taken call has its entry');
    const rows = await callRows(id);
    t.same(rows, onTaken === 4 ? [`taken:5`] : [`taken:${1 + onTaken}`, `open:${4 - onTaken}`], `one call, or the taken one and one new (${rows})`);
    t.equal((await openListed(id)).length, onTaken === 4 ? 0 : 1);
  }
});
