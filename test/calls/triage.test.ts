import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard } from '../helpers/live.ts';
import { insertRank } from '../../server/domains/people/store.ts';

// Call triage (issue 29): dismiss a call with a reason, attach it to an open sheet, take several into
// one sheet; what a game script hears about a dismissed call; live deltas, audit, stats, rights.
// The board's German table of reasons; its module reads the board's language from localStorage when loaded.
(globalThis as { localStorage?: unknown }).localStorage ??= { getItem: () => null, setItem: () => {} };
const { localMessage } = await import('../../board/src/app/server-messages.ts');
const G = '576000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'd1', nickname: 'Dora Dispatch' }, { userId: 'off', nickname: 'Otto Offduty' },
  { userId: 'view', nickname: 'Vera Viewer' }, { userId: 'crew', nickname: 'Cem Crew' },
]);
await insertRank(server.sql, G, { id: 'disp', name: 'Disponent', position: 5, capabilities: ['dispatch.view', 'dispatch.manage', 'timeclock.own.use'] });
await insertRank(server.sql, G, { id: 'view', name: 'Zuschauer', position: 3, capabilities: ['dispatch.view', 'timeclock.own.use'] });
await insertRank(server.sql, G, { id: 'crew', name: 'Besatzung', position: 1, capabilities: ['timeclock.own.use'] });
await server.sql`update people set rank_id = case user_id when 'd1' then 'disp' when 'off' then 'disp' when 'view' then 'view' else 'crew' end where guild_id = ${G}`;
await server.sql`insert into shifts (guild_id, user_id) values (${G}, 'd1'), (${G}, 'view'), (${G}, 'crew')`; // Otto stays off duty
const key = await unscopedKey(server.sql, G);
await api('PUT', '/admin/call-rate-limit', { key, body: { perMinute: 6000, burst: 1000 } });
const dora = await signIn(server, G, 'd1');
const as = { off: await signIn(server, G, 'off'), view: await signIn(server, G, 'view'), crew: await signIn(server, G, 'crew') };

const board = openBoard(server.url, { apiKey: key, topics: ['calls', 'overview', 'einsatzEntries'] });
t.teardown(board.close);
await board.until(() => board.state.stats.snapshots === 1);
const onBoard = (id: string) => id in board.state.topics.calls!;
const openCalls = () => board.state.topics.overview!.openCalls as number;
const notices = () => board.frames.filter((f) => f.kind === 'delta').flatMap((f) => (f.topics as any).einsatzEntries ?? []);

const report = async (externalId: string, extra: object = {}) => {
  const res = await api('POST', '/integrations/ingame/calls', { key, body: { externalId, title: 'Notruf', ...extra } });
  if (res.status !== 200) throw new Error(`set-up report ${externalId}: ${res.status} ${res.text}`);
  return res.body;
};
const enc = encodeURIComponent;
const dismiss = (id: string, body: unknown, session: { cookie: string; guildId: string } = dora) => api('POST', `/calls/${enc(id)}/dismiss`, { session, body });
const attach = (id: string, body: unknown, session: { cookie: string; guildId: string } = dora) => api('POST', `/calls/${enc(id)}/attach`, { session, body });
const merge = (body: unknown, session: { cookie: string; guildId: string } = dora) => api('POST', '/calls/merge', { session, body });
const rows = async (externalId: string) =>
  (await server.sql`select status, report_count from calls where guild_id = ${G} and external_id = ${externalId} order by id`).map((r) => `${r.status}:${r.report_count}`);
const audits = async (action: string) =>
  (await server.sql`select actor_kind, actor_id, data from audit_log where guild_id = ${G} and action = ${action} order by id`).map((r) => ({ ...r }));

t.test('dismiss with a preset reason: the call leaves every board, who, when and why are kept, audited', async (t) => {
  await report('junk:1', { kind: 'panik', title: 'Panikknopf', message: 'lol' });
  await board.until(() => onBoard('junk:1'));
  const before = openCalls();
  const res = await dismiss('junk:1', { reason: '  fehlalarm ' });
  t.equal(res.status, 200);
  t.match(res.body, {
    externalId: 'junk:1', status: 'dismissed', dismissReason: 'Fehlalarm', dismissedBy: { kind: 'session', id: 'd1', name: 'Dora Dispatch' },
    takenAt: null, incidentNumber: null, attachedAt: null,
  });
  t.ok(Math.abs(Date.parse(res.body.dismissedAt) - Date.now()) < 10_000, 'dismissedAt is now');
  await board.until(() => !onBoard('junk:1'));
  t.equal(openCalls(), before - 1, 'overview.openCalls −1');
  t.same(board.frames.at(-1)!.topics.calls, [{ op: 'remove', key: 'junk:1' }]);
  t.notOk((await api('GET', '/calls', { key })).body.calls.some((c: any) => c.externalId === 'junk:1'), 'not listed');
  t.same(await audits('calls.dismiss'), [{ actor_kind: 'session', actor_id: 'd1', data: { externalId: 'junk:1', callId: res.body.id, reason: 'Fehlalarm' } }]);

  await report('junk:2');
  const own = await dismiss('junk:2', { reason: ' Anrufer hat sich verwählt <b>ok</b> ' });
  t.equal(own.status, 200);
  t.equal(own.body.dismissReason, 'Anrufer hat sich verwählt <b>ok</b>', 'free text, trimmed, kept as written');
  await report('junk:3');
  t.equal((await api('POST', '/calls/junk:3/dismiss', { key, body: { reason: 'Doppelt' } })).body.dismissedBy.name, 'test', 'a key dismisses under its name');
});

t.test('dismiss refuses bad input with 400 {error} and changes nothing', async (t) => {
  await report('keep:1');
  for (const [body, message] of [
    [{}, /reason/], [{ reason: '' }, /reason must not be empty/], [{ reason: '   ' }, /reason must not be empty/],
    [{ reason: 'x'.repeat(201) }, /at most 200/], [{ reason: 7 }, /reason must be a string/], [{ reason: null }, /reason/],
    [{ reason: ['Fehlalarm'] }, /reason/], [{ reason: { $ne: '' } }, /reason/], [{ reason: 'a\u0000b' }, /NUL/], [{ reason: 'a\ud800b' }, /surrogate/],
    [{ reason: 'Doppelt', status: 'open' }, /unknown field status/], [{ reason: 'Doppelt', externalId: 'other' }, /given in the path/],
  ] as const) {
    assertError(t, await dismiss('keep:1', body), 400, JSON.stringify(body), message);
  }
  assertError(t, await api('POST', '/calls/keep:1/dismiss', { session: dora, raw: '{"reason": "Fehl', headers: { 'content-type': 'application/json' } }), 400, 'broken JSON');
  assertError(t, await dismiss('a b', { reason: 'Doppelt' }), 400, 'bad path id', /may contain only/);
  assertError(t, await dismiss("x'; drop table calls; --", { reason: 'Doppelt' }), 400, 'SQL in the path', /may contain only/);
  assertError(t, await dismiss('a'.repeat(81), { reason: 'Doppelt' }), 400, '81 chars', /at most 80/);
  t.equal((await dismiss('keep:1', { reason: 'x'.repeat(200) })).status, 200, '200 characters pass');
});

t.test('dismissing a call that is not open: 404 unknown, 409 with the reason why', async (t) => {
  assertError(t, await dismiss('never', { reason: 'Doppelt' }), 404, 'unknown', /no call with externalId never/);
  const again = await dismiss('junk:1', { reason: 'Doppelt' });
  assertError(t, again, 409, 'twice', /junk:1 was dismissed by the dispatch \(Fehlalarm\)/);
  t.match(again.body, { reason: 'call_dismissed', params: { call: 'junk:1', dismissReason: 'Fehlalarm' } });
  t.equal(localMessage(again.body.error, 'de', again.body), 'Die Meldung wurde bereits verworfen (Fehlalarm).', 'a German board says it in German');
  await report('taken:1');
  t.equal((await api('POST', '/calls/taken:1/take', { session: dora, body: {} })).status, 200);
  t.match((await dismiss('taken:1', { reason: 'Doppelt' })).body, { reason: 'call_taken', params: { call: 'taken:1' } });
  await report('res:1');
  await api('POST', '/integrations/ingame/calls/res:1/resolve', { key, body: { resolution: 'reached' } });
  const resolved = await dismiss('res:1', { reason: 'Doppelt' });
  assertError(t, resolved, 409, 'resolved', /res:1 is resolved/);
  t.equal(resolved.body.reason, 'call_resolved');
  t.equal(localMessage(resolved.body.error, 'de', resolved.body), 'Die Meldung wurde vom Spiel bereits abgeschlossen.');
  const take = await api('POST', '/calls/junk:1/take', { session: dora, body: {} });
  assertError(t, take, 409, 'a dismissed call cannot be taken');
  t.equal(take.body.reason, 'call_dismissed');
  t.same(await rows('junk:1'), ['dismissed:1'], 'still dismissed');
});

t.test('the game re-reports a dismissed call: 409 call_dismissed for 15 minutes, nothing stored; then a new call', async (t) => {
  const frames = board.frames.length;
  const res = await report('junk:1', { title: 'Panikknopf' }).catch((e: Error) => e);
  t.ok(res instanceof Error, 'not a 200');
  const raw = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: 'junk:1', title: 'Panikknopf' } });
  assertError(t, raw, 409, 're-report', /junk:1 was dismissed by the dispatch \(Fehlalarm\); reports of this externalId are refused until .*new externalId/);
  t.same(Object.keys(raw.body.params).sort(), ['call', 'dismissReason', 'until']);
  t.match(raw.body, { reason: 'call_dismissed', params: { call: 'junk:1', dismissReason: 'Fehlalarm' } });
  const until = Date.parse(raw.body.params.until);
  t.ok(Math.abs(until - (Date.now() + 15 * 60_000)) < 15_000, 'until is 15 minutes after the dismissal');
  t.same(await rows('junk:1'), ['dismissed:1'], 'no new call, the dismissed one is not counted');
  await new Promise((r) => setTimeout(r, 100));
  t.equal(board.frames.length, frames, 'nothing reached the board');

  const resolve = await api('POST', '/integrations/ingame/calls/junk:1/resolve', { key, body: { resolution: 'reached' } });
  t.equal(resolve.status, 200, 'resolving a dismissed call is 200');
  t.match(resolve.body, { status: 'dismissed', dismissReason: 'Fehlalarm', resolution: null, resolvedAt: null }, 'the call as stored: it says it was dismissed');
  t.same(await audits('calls.resolve'), (await audits('calls.resolve')).filter((a: any) => a.data.externalId !== 'junk:1'), 'no resolve audit for it');

  await server.sql`update calls set dismissed_at = now() - interval '16 minutes' where guild_id = ${G} and external_id = 'junk:1'`;
  const fresh = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: 'junk:1', title: 'Panikknopf' } });
  t.equal(fresh.status, 200, 'after the hold a report opens a new call');
  t.match(fresh.body, { status: 'open', reportCount: 1, dismissReason: null, dismissedAt: null });
  await board.until(() => onBoard('junk:1'));
  t.same(await rows('junk:1'), ['dismissed:1', 'open:1']);
});

t.test('attach a call to an open sheet: timeline entry, the call links to the sheet, later reports land there', async (t) => {
  await report('fire:1', { title: 'Brand Lagerhalle', location: 'Hafen' });
  const taken = await api('POST', '/calls/fire:1/take', { session: dora, body: {} });
  const sheet = taken.body.incident.number as number;
  await report('fire:2', { title: 'Rauch am Hafen', message: 'Schwarzer Rauch', caller: { name: 'Lea', phone: '555-1' } });
  await board.until(() => onBoard('fire:2'));
  const before = openCalls();
  const res = await attach('fire:2', { incident: sheet });
  t.equal(res.status, 200);
  t.match(res.body.call, { externalId: 'fire:2', status: 'taken', incidentNumber: sheet, takenBy: { kind: 'session', id: 'd1' }, dismissedAt: null });
  t.ok(res.body.call.attachedAt && res.body.call.attachedAt === res.body.call.takenAt, 'attachedAt = takenAt');
  t.match(res.body.incident, { number: sheet, keyword: 'Brand Lagerhalle', location: 'Hafen', call: { externalId: 'fire:1' } });
  t.match(res.body.incident.entries.at(-1), { kind: 'report', text: 'Meldung angehängt: Rauch am Hafen – Schwarzer Rauch (Anrufer: Lea, 555-1)', by: { name: 'Dora Dispatch' } });
  await board.until(() => !onBoard('fire:2'));
  t.equal(openCalls(), before - 1);
  await board.until(() => notices().some((n: any) => n.op === 'entry' && n.number === sheet && /Meldung angehängt/.test(n.entry.text)));
  t.same(await audits('calls.attach'), [{ actor_kind: 'session', actor_id: 'd1', data: { externalId: 'fire:2', callId: res.body.call.id, incidentNumber: sheet } }]);

  const linked = await api('GET', `/incidents/${sheet}/calls`, { session: as.view });
  t.equal(linked.status, 200);
  t.same(linked.body.calls.map((c: any) => [c.externalId, c.attachedAt === null]), [['fire:1', true], ['fire:2', false]], 'made of fire:1, fire:2 attached');

  const again = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: 'fire:2', title: 'Rauch am Hafen', message: 'Jetzt Flammen' } });
  t.match(again.body, { status: 'taken', reportCount: 2, incidentNumber: sheet }, 'a re-report goes to the attached call');
  const timeline = (await api('GET', `/incidents/${sheet}`, { key })).body.entries;
  t.match(timeline.at(-1), { kind: 'report', text: 'Erneute Meldung (2.): Rauch am Hafen – Jetzt Flammen' });
  t.notOk(onBoard('fire:2'), 'not an open call again');
  await api('POST', '/integrations/ingame/calls/fire:2/resolve', { key, body: { resolution: 'gone' } });
  t.match((await api('GET', `/incidents/${sheet}`, { key })).body.entries.at(-1), { kind: 'resolved', text: /fire:2 vom Spiel abgeschlossen: gone/ });
});

t.test('attach refuses: unknown or closed sheet, a call that is not open, bad input', async (t) => {
  await report('att:1');
  const closed = (await api('POST', '/incidents', { key, body: { keyword: 'Alt' } })).body.number;
  await api('POST', `/incidents/${closed}/close`, { key });
  const c = await attach('att:1', { incident: closed });
  assertError(t, c, 409, 'closed sheet', /is closed/);
  t.equal(c.body.reason, 'incident_closed');
  assertError(t, await attach('att:1', { incident: 9999 }), 404, 'unknown sheet', /no incident sheet 9999/);
  for (const [body, message] of [
    [{}, /incident/], [{ incident: '1' }, /incident must be/], [{ incident: 0 }, /at least 1/], [{ incident: -1 }, /at least 1/],
    [{ incident: 1.5 }, /whole number/], [{ incident: 2 ** 31 }, /too large/], [{ incident: null }, /incident/], [{ incident: 1, keyword: 'x' }, /unknown field keyword/],
  ] as const) assertError(t, await attach('att:1', body), 400, JSON.stringify(body), message);
  const open = (await api('POST', '/incidents', { key, body: { keyword: 'Offen' } })).body.number;
  assertError(t, await attach('never', { incident: open }), 404, 'unknown call');
  t.equal((await attach('fire:1', { incident: open })).body.reason, 'call_taken', 'a taken call');
  t.same(await rows('att:1'), ['open:1'], 'the call is still open');
  t.equal((await api('GET', `/incidents/${open}`, { key })).body.entries.length, 1, 'no entry on the open sheet');
});

t.test('take several calls into one sheet: made of the first, the others attached; all or nothing', async (t) => {
  await report('m:1', { title: 'VU B1', priority: 2 });
  await report('m:2', { title: 'VU B1 Auffahrunfall', kind: 'panik', location: { street: 'B1', x: 1, y: 2 } });
  await report('m:3', { title: 'Stau B1' });
  await board.until(() => onBoard('m:3'));
  const before = openCalls();
  const refused = await merge({ externalIds: ['m:2', 'm:1', 'fire:1'] });
  assertError(t, refused, 409, 'one is taken', /fire:1 was already taken/);
  t.same([...await rows('m:1'), ...await rows('m:2')], ['open:1', 'open:1'], 'nothing changed');

  const res = await merge({ externalIds: ['m:2', 'm:1', 'm:3'] });
  t.equal(res.status, 200);
  const n = res.body.incident.number;
  t.match(res.body.incident, { keyword: 'VU B1 Auffahrunfall', priority: 1, location: { street: 'B1' }, call: { externalId: 'm:2' } });
  t.same(res.body.calls.map((c: any) => [c.externalId, c.status, c.incidentNumber, c.attachedAt === null]), [['m:2', 'taken', n, true], ['m:1', 'taken', n, false], ['m:3', 'taken', n, false]]);
  t.same(res.body.incident.entries.map((e: any) => e.kind), ['created', 'report', 'report']);
  t.match(res.body.incident.entries[1].text, 'Meldung angehängt: VU B1');
  await board.until(() => !onBoard('m:1') && !onBoard('m:2') && !onBoard('m:3'));
  t.equal(openCalls(), before - 3);
  t.same((board.frames.at(-1)!.topics.calls as any[]).map((o) => o.key).sort(), ['m:1', 'm:2', 'm:3'], 'one frame');
  t.same(await audits('calls.merge'), [{ actor_kind: 'session', actor_id: 'd1', data: { externalIds: ['m:2', 'm:1', 'm:3'], callIds: res.body.calls.map((c: any) => c.id), incidentNumber: n } }]);
  t.same((await api('GET', `/incidents/${n}/calls`, { key })).body.calls.map((c: any) => c.externalId), ['m:2', 'm:1', 'm:3']);

  await report('m:4');
  await report('m:5');
  t.equal((await merge({ externalIds: ['m:4', 'm:5'], keyword: 'Eigenes Stichwort' })).body.incident.keyword, 'Eigenes Stichwort');
  await report('m:6');
  for (const [body, message] of [
    [{ externalIds: ['m:6'] }, /at least two/], [{ externalIds: ['m:6', 'm:6'] }, /must not repeat/], [{ externalIds: 'm:6' }, /array/],
    [{ externalIds: Array.from({ length: 21 }, (_, i) => `x${i}`) }, /at most 20/], [{ externalIds: Array.from({ length: 5000 }, (_, i) => `x${i}`) }, /at most 20/],
    [{ externalIds: ['m:6', 'a b'] }, /may contain only/], [{ externalIds: ['m:6', 5] }, /externalId/], [{}, /externalIds/],
    [{ externalIds: ['m:6', 'never'], keyword: '' }, /keyword/], [{ externalIds: ['m:6', 'never'], __proto__: { x: 1 }, extra: 1 }, /unknown field extra/],
  ] as const) assertError(t, await merge(body), 400, JSON.stringify(body).slice(0, 60), message);
  assertError(t, await merge({ externalIds: ['m:6', 'never'] }), 404, 'unknown call', /no call with externalId never/);
  t.same(await rows('m:6'), ['open:1']);
});

t.test('two dispatchers at once: a dismiss racing a take or an attach ends as one of them', async (t) => {
  const target = (await api('POST', '/incidents', { key, body: { keyword: 'Ziel' } })).body.number;
  for (let i = 0; i < 4; i++) {
    await report(`race:${i}`);
    const results = await Promise.all([
      dismiss(`race:${i}`, { reason: 'Doppelt' }),
      i % 2 ? api('POST', `/calls/race:${i}/take`, { key, body: {} }) : api('POST', `/calls/race:${i}/attach`, { key, body: { incident: target } }),
    ]);
    t.same(results.map((r) => r.status).sort(), [200, 409], `round ${i}`);
    t.equal((await rows(`race:${i}`)).length, 1);
  }
});

t.test('dismissed calls are counted in /stats/einsatz, by reason', async (t) => {
  const res = await api('GET', '/stats/einsatz?period=alltime', { key });
  t.equal(res.status, 200);
  // Fehlalarm: junk:1; Doppelt: junk:3 and the race winners; own words: junk:2, keep:1.
  const doppelt = (await server.sql`select count(*)::int as n from calls where guild_id = ${G} and dismiss_reason = 'Doppelt'`)[0].n;
  t.ok(doppelt >= 1);
  t.same(res.body.calls.dismissedByReason, { Fehlalarm: 1, Doppelt: doppelt, Erledigt: 0, other: 2 });
  t.equal(res.body.calls.dismissed, 3 + doppelt);
});

t.test('rights: dispatch.manage on duty; viewers, crews and scoped keys are refused', async (t) => {
  await report('r:1');
  await report('r:2');
  const sheet = (await api('POST', '/incidents', { key, body: { keyword: 'Rechte' } })).body.number;
  for (const who of [as.view, as.crew]) {
    assertError(t, await dismiss('r:1', { reason: 'Doppelt' }, who), 403, 'dismiss', /lacks the capability dispatch\.manage/);
    assertError(t, await attach('r:1', { incident: sheet }, who), 403, 'attach', /lacks the capability dispatch\.manage/);
    assertError(t, await merge({ externalIds: ['r:1', 'r:2'] }, who), 403, 'merge', /lacks the capability dispatch\.manage/);
  }
  assertError(t, await api('GET', `/incidents/${sheet}/calls`, { session: as.crew }), 403, 'crew cannot read a sheet\'s calls');
  for (const scope of specScopes) {
    const scoped = await scopedKey(server.sql, G, [scope], `k ${scope}`);
    for (const [method, path, body] of [
      ['POST', '/calls/r:1/dismiss', { reason: 'Doppelt' }], ['POST', '/calls/r:1/attach', { incident: sheet }],
      ['POST', '/calls/merge', { externalIds: ['r:1', 'r:2'] }], ['GET', `/incidents/${sheet}/calls`, undefined],
    ] as const) assertError(t, await api(method, path, { key: scoped, body }), 403, `${scope}: ${method} ${path}`, /scoped API keys cannot use this route/);
  }
  for (const [res, what] of [
    [await dismiss('r:1', { reason: 'Doppelt' }, as.off), 'dismiss'], [await attach('r:1', { incident: sheet }, as.off), 'attach'],
    [await merge({ externalIds: ['r:1', 'r:2'] }, as.off), 'merge'],
  ] as const) {
    assertError(t, res, 409, `off duty: ${what}`, /off duty/);
    t.equal(res.body.reason, 'off_duty');
  }
  assertError(t, await api('GET', '/incidents/424242/calls', { key }), 404, 'unknown sheet');
  assertError(t, await api('GET', '/incidents/x/calls', { key }), 400, 'bad number');
  t.same([...await rows('r:1'), ...await rows('r:2')], ['open:1', 'open:1'], 'both still open');
});
