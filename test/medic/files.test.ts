import t from 'tap';
import { assertError } from '../helpers/fixtures.ts';
import { openBoard, wsWithCookie } from '../helpers/live.ts';
import { everyType, nextId, vital } from './events.ts';
import { medicWorld } from './world.ts';

// The board's side: capabilities (view reads, manage closes and maps tiers), closing a file, the
// citizen state (last write by game time wins), qualifications from the tier mapping, topic medic.
const G = 'g-medic-files';
const { server, post, api, as, fileOf } = await medicWorld(t, G);
await post(everyType('F-1').slice(0, 8));
const file = await fileOf('F-1');

t.test('medic.files.view reads everything but cannot close, map tiers or send events; without it nothing', async (t) => {
  for (const path of ['/medic/patients', `/medic/patients/${file.fileId}`, `/medic/patients/${file.fileId}/vitals`, '/medic/qualifications', '/medic/tiers', file.images[0].url]) {
    t.equal((await api('GET', path, { session: as.viewer })).status, 200, `viewer: GET ${path}`);
    assertError(t, await api('GET', path, { session: as.crew }), 403, `crew: GET ${path}`, /medic\.files\.view/);
  }
  assertError(t, await api('POST', `/medic/patients/${file.fileId}/close`, { session: as.viewer, body: {} }), 403, 'viewer closes', /medic\.files\.manage/);
  assertError(t, await api('PUT', '/medic/tiers', { session: as.viewer, body: { mapping: [] } }), 403, 'viewer maps tiers', /medic\.files\.manage/);
  assertError(t, await api('POST', '/medic/events', { session: as.viewer, body: { events: [vital('F-1')] } }), 403, 'viewer sends events');
  assertError(t, await api('PUT', '/medic/citizens/F-1/state', { session: as.viewer, body: { at: Date.now(), state: 'ok' } }), 403, 'viewer sets a state');
  t.equal((await fileOf('F-1')).status, 'open');
});

t.test('medic.files.manage closes a file: 409 the second time, audit row, timeline entry; the next event opens a new file', async (t) => {
  const res = await api('POST', `/medic/patients/${file.fileId}/close`, { session: as.medic, body: { note: 'an KH übergeben' } });
  t.equal(res.status, 200);
  t.match(res.body, { fileId: file.fileId, status: 'closed', outcome: 'closed' });
  t.ok(Date.parse(res.body.closedAt) >= Date.now() - 60_000);
  t.match(res.body.timeline.at(-1), { type: 'file_closed', summary: 'Akte geschlossen von Mia Medic: an KH übergeben', data: { note: 'an KH übergeben', by: { kind: 'session', id: 'medic', name: 'Mia Medic' } } });
  assertError(t, await api('POST', `/medic/patients/${file.fileId}/close`, { session: as.medic, body: {} }), 409, 'again', /already closed/);
  assertError(t, await api('POST', '/medic/patients/424242/close', { session: as.medic, body: {} }), 404, 'unknown file');
  assertError(t, await api('POST', `/medic/patients/${file.fileId}/close`, { session: as.medic, body: { note: 'x', extra: 1 } }), 400, 'unknown field');
  const [audit] = await server.sql`select actor_kind, actor_id, data from audit_log where guild_id = ${G} and action = 'medic.file_close'`;
  t.match(audit, { actor_kind: 'session', actor_id: 'medic', data: { fileId: file.fileId, citizenId: 'F-1', note: 'an KH übergeben' } });
  await post([vital('F-1')]);
  const next = await fileOf('F-1');
  t.not(next.fileId, file.fileId, 'a new file');
  t.match(next, { status: 'open', injuries: [], vitals: { count: 1 } });
});

t.test('citizen state: last write by game time wins; older or equal is ignored and said so', async (t) => {
  const at = Date.now() - 5000;
  const iso = (ms: number) => new Date(ms).toISOString();
  const put = (body: object) => api('PUT', '/medic/citizens/F-2/state', { body });
  const first = await put({ at, state: 'downed', health: 0, armor: 100, conscious: false, bleeding: 3, position: { x: -100000, y: 100000, z: 31.5 }, name: 'Tom' });
  t.match(first.body, { applied: true, state: { citizenId: 'F-2', at: iso(at), state: 'downed', health: 0, armor: 100, conscious: false, bleeding: 3, position: { x: -100000, y: 100000, z: 31.5 }, name: 'Tom' } });
  t.notOk('reason' in first.body);
  const older = await put({ at: at - 1, state: 'ok' });
  t.match(older.body, { applied: false, reason: `older than the stored state (at ${iso(at)})`, state: { state: 'downed', at: iso(at) } });
  const equal = await put({ at, state: 'dead' });
  t.match(equal.body, { applied: false, state: { state: 'downed' } });
  const newer = await put({ at: at + 1, state: 'in_treatment' });
  t.match(newer.body, { applied: true, state: { state: 'in_treatment', at: iso(at + 1), health: null, position: null, name: null } });
  for (const [what, body, field] of [
    ['health 201', { at: at + 2, state: 'ok', health: 201 }, /health/], ['armor -1', { at: at + 2, state: 'ok', armor: -1 }, /armor/],
    ['x over 100000', { at: at + 2, state: 'ok', position: { x: 100001, y: 0, z: 0 } }, /x/], ['state unknown', { at: at + 2, state: 'asleep' }, /state/],
    ['bleeding 4', { at: at + 2, state: 'ok', bleeding: 4 }, /bleeding/], ['no at', { state: 'ok' }, /at/], ['extra', { at: at + 2, state: 'ok', mood: 1 }, /mood/],
    ['name 81', { at: at + 2, state: 'ok', name: 'x'.repeat(81) }, /name/],
  ] as const) assertError(t, await put(body), 400, what, field);
  assertError(t, await api('PUT', '/medic/citizens/bad%20id/state', { body: { at, state: 'ok' } }), 400, 'a citizen id with a space');
  await post([vital('F-2')]);
  const summary = (await api('GET', '/medic/patients?q=F-2')).body.patients[0];
  t.match(summary, { state: { state: 'in_treatment' }, name: null }, 'a file shows the citizen\'s state (name from the state when the file has none)');
});

t.test('tiers: the mapping replaces, unknown ranks are 400; qualifications list each person with a mapped rank', async (t) => {
  t.same((await api('GET', '/medic/qualifications')).body, { tiers: [], mapping: [] });
  assertError(t, await api('PUT', '/medic/tiers', { session: as.medic, body: { mapping: [{ rankId: 'ghost', tier: 2 }] } }), 400, 'unknown rank', /mapping\[0\]\.rankId ghost is not a rank/);
  assertError(t, await api('PUT', '/medic/tiers', { session: as.medic, body: { mapping: [{ rankId: 'crew', tier: 5 }] } }), 400, 'tier 5');
  assertError(t, await api('PUT', '/medic/tiers', { session: as.medic, body: { mapping: [{ rankId: 'crew', tier: 1 }, { rankId: 'crew', tier: 2 }] } }), 400, 'twice', /twice/);
  const set = await api('PUT', '/medic/tiers', { session: as.medic, body: { mapping: [{ rankId: 'crew', tier: 1 }, { rankId: 'medic', tier: 4 }] } });
  t.same(set.body.mapping, [{ rankId: 'medic', rankName: 'Notarzt', tier: 4 }, { rankId: 'crew', rankName: 'Crew', tier: 1 }]);
  const q = await api('GET', '/medic/qualifications');
  t.same(q.body.tiers, [
    { userId: 'medic', badgeNumber: '04', nickname: 'Mia Medic', rankId: 'medic', rankName: 'Notarzt', tier: 4 },
    { userId: 'crew', badgeNumber: '02', nickname: 'Carla Crew', rankId: 'crew', rankName: 'Crew', tier: 1 },
  ], 'people without a mapped rank (boss, viewer) are left out');
  await api('PUT', '/medic/tiers', { body: { mapping: [{ rankId: 'viewer', tier: 2 }] } });
  t.same((await api('GET', '/medic/qualifications')).body.tiers.map((p: any) => [p.userId, p.tier]), [['viewer', 2]], 'the whole mapping was replaced');
  t.same((await api('GET', '/medic/tiers')).body, { mapping: [{ rankId: 'viewer', rankName: 'Leser', tier: 2 }] });
  const audits = await server.sql`select actor_kind, data from audit_log where guild_id = ${G} and action = 'medic.tiers_set' order by id`;
  t.equal(audits.length, 2);
  t.match(audits[0], { actor_kind: 'session', data: { mapping: [{ rankId: 'crew', tier: 1 }, { rankId: 'medic', tier: 4 }] } });
  const settings = server.events.filter((e) => e.guildId === G && e.deltas.settings).flatMap((e) => e.deltas.settings!);
  t.match(settings.at(-1), { op: 'set', key: 'medicTiers', value: [{ rankId: 'viewer', tier: 2 }] });
});

t.test('topic medic: a watcher gets one upsert per touched file per batch and the state ops; crew may not watch', async (t) => {
  const board = openBoard(server.url, { guildId: G, WebSocket: wsWithCookie(as.viewer.cookie), topics: ['medic'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const ops = () => board.frames.flatMap((f: any) => (f.kind === 'delta' ? f.topics.medic ?? [] : []));
  const at = Date.now();
  await post([vital('LIVE-1', { heartRate: 80 }, at), vital('LIVE-1', { heartRate: 82 }, at + 1), vital('LIVE-2', { spo2: 88 }, at),
    { id: nextId('l'), type: 'injury_added', citizenId: 'LIVE-1', at: at + 2, injuryId: 'a', bodyPart: 'head', kind: 'bite', severity: 1 }]);
  await board.until(() => ops().length >= 2);
  const upserts = ops();
  t.equal(upserts.length, 2, 'one op per touched file, not per sample');
  t.match(upserts.find((o: any) => o.value.citizenId === 'LIVE-1'), { op: 'upsert', value: { status: 'open', injuries: 1, lastEventAt: new Date(at + 2).toISOString(), lastVitals: { heartRate: 82, at: new Date(at + 1).toISOString() } } });
  t.match(upserts.find((o: any) => o.value.citizenId === 'LIVE-2'), { op: 'upsert', value: { lastVitals: { spo2: 88, heartRate: null } } });
  const fileId = upserts.find((o: any) => o.value.citizenId === 'LIVE-1').value.fileId;
  t.same(upserts.find((o: any) => o.value.citizenId === 'LIVE-1').value, (await api('GET', `/medic/patients?q=LIVE-1`)).body.patients[0], 'the op carries the summary GET /medic/patients lists');
  await api('PUT', '/medic/citizens/LIVE-1/state', { body: { at, state: 'downed' } });
  await board.until(() => ops().some((o: any) => o.op === 'state'));
  t.match(ops().at(-1), { op: 'state', key: 'LIVE-1', value: { citizenId: 'LIVE-1', state: 'downed' } });
  await api('POST', `/medic/patients/${fileId}/close`, { body: {} });
  await board.until(() => ops().some((o: any) => o.op === 'upsert' && o.value.status === 'closed'));
  t.match(ops().at(-1), { op: 'upsert', key: fileId, value: { outcome: 'closed' } });
  const crew = openBoard(server.url, { guildId: G, WebSocket: wsWithCookie(as.crew.cookie), topics: ['medic'] });
  t.teardown(crew.close);
  await crew.until(() => crew.errors.length > 0);
  t.match(String(crew.errors[0]), /medic \(needs the capability medic\.files\.view/);
});
