import t from 'tap';
import { openBoard, wsWithCookie } from '../helpers/live.ts';
import { GUILD, letterheadWorld } from './world.ts';

// The `letterheads` topic on a live board: whoever may read GET /letterheads may watch it and gets
// each change; whoever may not is refused; with module documents off nobody can subscribe to it.
const { server, who, api } = await letterheadWorld(t);
const watch = (cookie: string) => openBoard(server.url, { guildId: GUILD, WebSocket: wsWithCookie(cookie), topics: ['letterheads'] });
const letterheadOps = (board: ReturnType<typeof watch>) => board.frames.flatMap((f: any) => (f.kind === 'delta' ? f.topics.letterheads ?? [] : []));

t.test('a viewer (documents.letterhead.view only) watches the topic and gets create, update, reorder and delete', async (t) => {
  const board = watch(who.view.cookie);
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const a = (await api('POST', '/letterheads', { key: who.key, body: { name: 'Erster' } })).body;
  const b = (await api('POST', '/letterheads', { key: who.key, body: { name: 'Zweiter' } })).body;
  await api('PATCH', `/letterheads/${a.id}`, { key: who.key, body: { version: 1, footer: 'Fuß' } });
  await api('PUT', '/letterheads/order', { key: who.key, body: { ids: [b.id, a.id] } });
  await api('DELETE', `/letterheads/${b.id}`, { key: who.key });
  await board.until(() => letterheadOps(board).some((o: any) => o.op === 'remove'));
  t.match(letterheadOps(board), [
    { op: 'upsert', key: String(a.id), value: { name: 'Erster', position: 0 } },
    { op: 'upsert', key: String(b.id), value: { name: 'Zweiter', position: 1 } },
    { op: 'upsert', key: String(a.id), value: { footer: 'Fuß', version: 2 } },
    { op: 'patch', key: String(b.id), value: { position: 0 } }, { op: 'patch', key: String(a.id), value: { position: 1 } },
    { op: 'patch', key: String(a.id), value: { position: 0 } }, { op: 'remove', key: String(b.id) },
  ]);
  t.same(board.errors, []);
});

t.test('a member without the capability may not watch it', async (t) => {
  const board = watch(who.member.cookie);
  t.teardown(board.close);
  await board.until(() => board.errors.length > 0);
  t.match(String(board.errors[0]), /letterheads/);
  t.match(String(board.errors[0]), /documents\.letterhead\.view/);
});

t.test('module documents off: subscribing to letterheads is a 404', async (t) => {
  t.equal((await api('PATCH', '/admin/modules', { key: who.key, body: { modules: { documents: false } } })).status, 200);
  t.teardown(() => api('PATCH', '/admin/modules', { key: who.key, body: { modules: { documents: true } } }));
  const board = watch(who.admin.cookie);
  t.teardown(board.close);
  await board.until(() => board.errors.length > 0);
  t.match(String(board.errors[0]), /module "documents" is switched off/);
});
