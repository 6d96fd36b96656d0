import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard } from '../helpers/live.ts';
import { insertRank } from '../../server/domains/people/store.ts';

// Live effects of calls and incident sheets on a subscribed board: `calls` (open calls by
// externalId), `overview.openCalls`, and `einsatzEntries` notices; applied deltas == a fresh snapshot.
const G = '573000000000000001';
const TOPICS = ['calls', 'overview', 'einsatzEntries'] as const;
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [{ userId: 'd1', nickname: 'Dora Dispatch' }]);
await insertRank(server.sql, G, { id: 'boss', name: 'Leitung', position: 9, capabilities: ['dispatch.view', 'dispatch.manage', 'incidents.manage'] });
await server.sql`update people set rank_id = 'boss' where guild_id = ${G} and user_id = 'd1'`;
// Units exist before the hub first loads the guild (they are another domain's; no events here).
await server.sql`insert into units (guild_id, callsign, label) values (${G}, 'RTW-1', 'Rettungswagen 1'), (${G}, 'NEF-1', 'Notarzt 1')`;
await server.sql`insert into shifts (guild_id, user_id) values (${G}, 'd1')`; // on duty: taking a call needs it
const key = await unscopedKey(server.sql, G);
const dora = await signIn(server, G, 'd1');

/** A call of `GET /calls` as the topic holds it: the same object, times as epoch ms. */
function asLive(call: Record<string, any>) {
  const ms = (v: string | null) => (v === null ? null : Date.parse(v));
  return { ...call, createdAt: ms(call.createdAt), updatedAt: ms(call.updatedAt), takenAt: ms(call.takenAt), resolvedAt: ms(call.resolvedAt) };
}
async function restCalls() {
  const res = await api('GET', '/calls', { key });
  return Object.fromEntries(res.body.calls.map((c: any) => [c.externalId, asLive(c)]));
}
const lastFrame = (board: ReturnType<typeof openBoard>) => board.frames.at(-1)!;

t.test('reports, re-reports, resolve and take move the calls topic and overview.openCalls', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: [...TOPICS] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.same(board.state.topics.calls, {}, 'no open calls');
  t.equal(board.state.topics.overview!.openCalls, 0);
  t.same(board.state.topics.einsatzEntries, {}, 'einsatzEntries is a notice topic: no state');

  const panic = await api('POST', '/integrations/ingame/calls', {
    key, body: { externalId: 'panic:1', kind: 'panik', title: 'Panikknopf', location: { x: -1037.5, y: -2737.25, street: 'LSIA' }, caller: { name: 'Officer Kim' } },
  });
  await board.until(() => 'panic:1' in board.state.topics.calls!);
  t.same(board.state.topics.calls!['panic:1'], asLive(panic.body), 'the topic holds the call as the API answered it');
  t.equal(board.state.topics.overview!.openCalls, 1);
  t.same(Object.keys(lastFrame(board).topics).sort(), ['calls', 'overview'], 'one frame, both topics');

  const again = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: 'panic:1', kind: 'panik', title: 'Panikknopf (2)' } });
  await board.until(() => (board.state.topics.calls!['panic:1'] as any).reportCount === 2);
  t.same(board.state.topics.calls!['panic:1'], asLive(again.body));
  t.equal(board.state.topics.overview!.openCalls, 1, 'a re-report does not count as a new open call');
  t.same(Object.keys(lastFrame(board).topics), ['calls'], 'no overview op for a re-report');

  await api('POST', '/integrations/ingame/calls', { key, body: { externalId: 'tip:1', kind: 'hinweis', title: 'Verdächtige Person', location: 'Grove Street' } });
  await board.until(() => board.state.topics.overview!.openCalls === 2);
  t.same(board.state.topics.calls, await restCalls(), 'board == GET /calls');

  const resolved = await api('POST', '/integrations/ingame/calls/tip:1/resolve', { key, body: { resolution: 'reached' } });
  t.equal(resolved.status, 200);
  await board.until(() => !('tip:1' in board.state.topics.calls!));
  t.equal(board.state.topics.overview!.openCalls, 1);
  t.same(lastFrame(board).topics.calls, [{ op: 'remove', key: 'tip:1' }]);

  const taken = await api('POST', '/calls/panic:1/take', { session: dora });
  t.equal(taken.status, 200);
  await board.until(() => !('panic:1' in board.state.topics.calls!));
  t.equal(board.state.topics.overview!.openCalls, 0);
  const frame = lastFrame(board);
  t.same(Object.keys(frame.topics).sort(), ['calls', 'einsatzEntries', 'overview'], 'take: calls, overview and einsatzEntries in one frame');
  const ops = frame.topics.einsatzEntries as any[];
  t.match(ops, [
    { op: 'incident', change: 'created', number: 1, incident: { number: 1, keyword: 'Panikknopf (2)', state: 'open', version: 1, call: { externalId: 'panic:1' }, createdAt: Number } },
    { op: 'entry', number: 1, entry: { kind: 'created', number: 1, at: Number, by: { kind: 'session', id: 'd1', name: 'Dora Dispatch' } } },
  ]);
  t.same(board.state.topics.einsatzEntries, {}, 'notices change no state');
  t.equal(board.state.stats.gaps, 0);
});

t.test('every incident sheet write reaches the board as einsatzEntries notices', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['einsatzEntries'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const received = () => board.frames.filter((f) => f.kind === 'delta').flatMap((f) => (f.topics as any).einsatzEntries ?? []);

  const steps: [string, string, object | undefined, string][] = [
    ['POST', '/incidents', { keyword: 'Brand', priority: 1 }, 'created'],
    ['PUT', '/incidents/2/units/RTW-1', undefined, 'unit_assigned'],
    ['PUT', '/incidents/2/units/NEF-1', undefined, 'unit_assigned'],
    ['PATCH', '/incidents/2', { version: 1, keyword: 'Brand 2', location: 'Paleto Bay' }, 'updated'],
    ['DELETE', '/incidents/2/units/NEF-1', undefined, 'unit_released'],
    ['POST', '/incidents/2/close', undefined, 'closed'],
  ];
  let expected = 0;
  for (const [method, path, body, change] of steps) {
    const res = await api(method, path, { session: dora, body });
    t.equal(res.status, 200, `${method} ${path}`);
    expected += 2;
    await board.until(() => received().length === expected);
    const [incidentOp, entryOp] = received().slice(-2);
    t.match(incidentOp, { op: 'incident', change, number: 2, incident: { number: 2, version: res.body.version, state: res.body.state } });
    const { entries: _entries, ...sheet } = res.body;
    const ms = (v: string | null) => (v === null ? null : Date.parse(v));
    t.same(incidentOp.incident, {
      ...sheet, createdAt: ms(sheet.createdAt), updatedAt: ms(sheet.updatedAt), closedAt: ms(sheet.closedAt),
      units: sheet.units.map((u: any) => ({ ...u, assignedAt: ms(u.assignedAt) })),
    }, 'the sheet as the API answered, without its timeline, times as epoch ms');
    t.same(entryOp.entry, { ...res.body.entries.at(-1), at: ms(res.body.entries.at(-1).at) }, 'the new entry as the API answered');
    t.match(entryOp, { op: 'entry', number: 2, entry: { kind: change, id: res.body.entries.at(-1).id } });
  }
  const noteBoard = openBoard(server.url, { apiKey: key, topics: ['einsatzEntries'] });
  t.teardown(noteBoard.close);
  await noteBoard.until(() => noteBoard.state.stats.snapshots === 1);
  await api('POST', '/incidents', { key, body: { keyword: 'Notiz-Test' } });
  const note = await api('POST', '/incidents/3/entries', { session: dora, body: { text: 'Patient übergeben' } });
  t.equal(note.status, 200);
  await noteBoard.until(() => noteBoard.frames.some((f) => f.kind === 'delta' && (f.topics as any).einsatzEntries?.some((o: any) => o.op === 'entry' && o.entry.kind === 'note')));
  const noteOps = noteBoard.frames.at(-1)!.topics as any;
  t.same(noteOps.einsatzEntries, [{ op: 'entry', number: 3, entry: { ...note.body, at: Date.parse(note.body.at) } }], 'a note is one entry op with the entry as answered');
  t.equal(board.state.stats.gaps, 0);
});

t.test('a board that applied every delta equals a fresh snapshot, on this node and on another', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: [...TOPICS] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const bodies = [
    { externalId: 'mix:1', title: 'Text-Ort', location: 'Sandy Shores', caller: { phone: '555-1' }, source: 'gcphone' },
    { externalId: 'mix:2', title: 'Koordinaten', location: { x: 1.5, y: -2.25 }, kind: 'alarm', priority: 3, message: 'BMA' },
    { externalId: 'mix:3', title: 'Ohne alles' },
    { externalId: 'mix:1', title: 'Text-Ort (2)', message: 'jetzt mit Text' },
    { externalId: 'mix:4', title: 'Wird übernommen' },
    { externalId: 'mix:5', title: 'Wird erledigt', kind: 'hinweis' },
  ];
  for (const body of bodies) t.equal((await api('POST', '/integrations/ingame/calls', { key, body })).status, 200);
  await api('POST', '/calls/mix:4/take', { key });
  await api('POST', '/integrations/ingame/calls/mix:5/resolve', { key, body: { resolution: 'reached' } });
  await board.until(() => board.state.topics.overview!.openCalls === 3 && !('mix:5' in board.state.topics.calls!));
  t.same(Object.keys(board.state.topics.calls!).sort(), ['mix:1', 'mix:2', 'mix:3']);
  t.same(board.state.topics.calls, await restCalls(), 'board == GET /calls');

  const fresh = openBoard(server.url, { apiKey: key, topics: [...TOPICS] });
  t.teardown(fresh.close);
  await fresh.until(() => fresh.state.stats.snapshots === 1);
  t.same(board.state.topics, fresh.state.topics, 'same node: deltas == snapshot');

  // Another node loads the guild from PostgreSQL (hub/state/calls.ts), not from this node's memory.
  const other = await startTestServer(t, {}, { databaseUrl: server.databaseUrl });
  const remote = openBoard(other.url, { apiKey: key, topics: [...TOPICS] });
  t.teardown(remote.close);
  await remote.until(() => remote.state.stats.snapshots === 1);
  t.same(remote.state.topics.calls, board.state.topics.calls, 'the loader builds the same calls state');
  t.same(remote.state.topics.overview, board.state.topics.overview, 'and the same overview');
  t.same(remote.state.topics.einsatzEntries, {});
});
