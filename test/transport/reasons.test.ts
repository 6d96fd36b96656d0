/**
 * Errors carry a stable machine-readable `reason` besides `error` (issue 28): the REST body
 * `{ error, reason, params? }`, tRPC's error data (HTTP and WebSocket alike, one formatter), and
 * the board translates by reason, not by its English wording.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { TRPCClientError } from '@trpc/client';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { createDispatchClient, reasonOf } from '../../client-sdk/index.ts';
import { localMessage } from '../../board/src/app/server-messages.ts';

const G = '563000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'u1', nickname: 'Anna', badge: '1', rank: 'crew' },
  { userId: 'u2', nickname: 'Ben', badge: '2', rank: 'crew' },
]);
const key = await unscopedKey(server.sql, G);

t.test('REST: a specific reason with the message\'s variable parts', async (t) => {
  t.equal((await api('POST', '/admin/clock-in', { key, body: { badge: 1 } })).status, 200);
  const again = await api('POST', '/admin/clock-in', { key, body: { badge: 1 } });
  t.equal(again.status, 409);
  t.same(again.body, { error: 'Anna is already clocked in', reason: 'already_clocked_in', params: { person: 'Anna' } });
  const out = await api('POST', '/admin/clock-out', { key, body: { badge: 2 } });
  t.same(out.body, { error: 'Ben is not clocked in', reason: 'not_clocked_in', params: { person: 'Ben' } });
});

t.test('REST: validation, and the general reason of a status', async (t) => {
  const unknown = await api('POST', '/admin/clock-in', { key, body: { badge: 1, extra: true } });
  t.equal(unknown.status, 400);
  t.same(unknown.body, { error: 'body: unknown field extra', reason: 'validation' });
  const noRoute = await api('GET', '/api/v1/nope', { key });
  t.same(noRoute.body, { error: 'no route GET /api/v1/nope', reason: 'not_found' });
  const noKey = await api('GET', '/api/v1/units');
  t.equal(noKey.status, 401);
  t.equal(noKey.body.reason, 'missing_credential');
});

t.test('tRPC: data.reason and data.params, read by the SDK\'s reasonOf', async (t) => {
  const dt = createDispatchClient({ baseUrl: server.url, apiKey: key });
  const err = await dt.timeclock.clockOut.mutate({ badge: 2 }).then(() => null, (e: unknown) => e);
  t.ok(err instanceof TRPCClientError, String(err));
  t.same(reasonOf(err), { reason: 'not_clocked_in', params: { person: 'Ben' } });
  t.equal((err as TRPCClientError<any>).data?.httpStatus, 409);
  t.equal(reasonOf(new Error('network')), undefined, 'no reason for a failure without an answer');
});

t.test('the board translates by reason, not by wording', async (t) => {
  const why = { reason: 'slot_taken', params: { slot: '2', person: 'Anna' } };
  t.equal(localMessage('whatever the server says in English', 'de', why), 'Platz 2 ist von Anna besetzt.');
  t.equal(localMessage('slot 2 is taken by Anna', 'en', why), 'slot 2 is taken by Anna', 'English boards show the message');
  t.equal(localMessage('something new', 'de', { reason: 'a_reason_from_a_newer_server', params: {} }), 'something new', 'unknown reasons fall back to the message');
  t.equal(localMessage('slot 2 is taken by Anna', 'de', { reason: 'slot_taken', params: {} }), 'slot 2 is taken by Anna', 'a missing part falls back to the message');
  t.equal(localMessage('you are not clocked in', 'de', { reason: 'not_clocked_in' }), 'Du bist nicht eingestempelt.');
  const source = readFileSync(new URL('../../board/src/app/server-messages.ts', import.meta.url), 'utf8');
  t.notMatch(source, /RegExp|\/\^|\.exec\(|\.test\(/, 'no patterns over English messages');
});
