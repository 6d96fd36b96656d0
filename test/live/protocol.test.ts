import t from 'tap';
import WebSocket from 'ws';
import { createTRPCClient, createWSClient, wsLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../server/trpc/app-router.ts';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { rawSocket } from '../helpers/raw-ws.ts';

// Client mistakes over the WebSocket are client errors: PARSE_ERROR / BAD_REQUEST / NOT_FOUND (4xx),
// logged at debug, never a 500 or an error line; an oversize frame closes the socket with 1009.

/** The server's log lines (JSON on stderr, this process), from now on. */
const logLines: { lvl: string; msg: string }[] = [];
const write = process.stderr.write.bind(process.stderr);
process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  const text = chunk.toString();
  if (text.startsWith('{"t":')) {
    for (const line of text.trim().split('\n')) logLines.push(JSON.parse(line));
    return true;
  }
  return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stderr.write;
t.teardown(() => void (process.stderr.write = write));

const G = '566000000000000001';
const server = await startTestServer(t, { LOG_LEVEL: 'debug' });
const api = client(server);
await seedGuild(server.sql, G);
const key = await unscopedKey(server.sql, G);
const errorLines = () => logLines.filter((l) => l.lvl === 'error');

t.test('malformed messages are PARSE_ERROR (400), each logged at debug only', async (t) => {
  const s = await rawSocket(server.url, { params: { authorization: `Bearer ${key}` } });
  t.teardown(() => s.ws.close());
  const before = errorLines().length;
  const cases: [string, string | number | null, RegExp][] = [
    ['1', null, /JSON object/],
    ['null', null, /JSON object/],
    ['"text"', null, /JSON object/],
    ['{}', null, /`id` is required/],
    ['{"id":1,"method":"x"}', 1, /`method` must be/],
    ['{"id":2,"method":"query"}', 2, /`params` must be an object/],
    ['{"id":3,"method":"query","params":{"path":5}}', 3, /`params.path` must be a string/],
    ['{"id":4,"method":"subscription","params":{"path":"live.watch","lastEventId":7}}', 4, /lastEventId/],
    ['{"id":{"a":1},"method":"query","params":{"path":"health.check"}}', null, /`id` must be a string or a number/],
    ['{"id":5,"jsonrpc":"1.0","method":"query","params":{"path":"health.check"}}', 5, /jsonrpc/],
    ['[1, null]', null, /JSON object/],
  ];
  for (const [frame, id, message] of cases) {
    const seen = s.messages.length;
    s.send(frame);
    await s.until((ms) => ms.length > seen);
    const answer = s.messages[seen];
    t.match(answer, { id, error: { json: { code: -32700, message, data: { code: 'PARSE_ERROR', httpStatus: 400 } } } }, frame);
  }
  t.equal(errorLines().length, before, 'no error-level log line');
  t.ok(logLines.some((l) => l.lvl === 'debug' && l.msg === 'ws call refused'), 'they are logged at debug');
  t.equal(s.closed, null, 'the socket stays open');
});

t.test('unknown procedures are NOT_FOUND, wrong input BAD_REQUEST, through the stock client; nothing at error level', async (t) => {
  const wsClient = createWSClient({ url: `${server.url.replace('http', 'ws')}/trpc`, WebSocket: WebSocket as never, connectionParams: () => ({ authorization: `Bearer ${key}` }) });
  const c = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient, transformer: superjson })] });
  t.teardown(() => wsClient.close());
  const before = errorLines().length;
  const fail = async (p: Promise<unknown>) => p.then(() => null, (e) => e as TRPCClientError<any>);
  const unknown = await fail((c as any).no.such.procedure.query());
  t.match(unknown?.data, { code: 'NOT_FOUND', httpStatus: 404 }, 'unknown path');
  const wrongType = await fail((c as any).timeclock.clockIn.query({ badge: 1 }));
  t.match(wrongType?.data, { code: 'NOT_FOUND', httpStatus: 404 }, 'a mutation called as a query');
  const badInput = await fail(c.timeclock.clockIn.mutate({ badge: -1 } as any));
  t.match(badInput?.data, { code: 'BAD_REQUEST', httpStatus: 400 }, 'wrong input');
  const badTopics = await new Promise<TRPCClientError<any>>((resolve) => {
    c.live.watch.subscribe({ topics: ['nope' as any] }, { onError: (e) => resolve(e as TRPCClientError<any>) });
  });
  t.match(badTopics.data, { code: 'BAD_REQUEST', httpStatus: 400 }, 'a subscription with wrong input');
  t.same(await c.health.check.query(), { ok: true });
  t.equal(errorLines().length, before, 'no error-level log line');
  for (const code of ['NOT_FOUND', 'BAD_REQUEST']) {
    t.ok(logLines.some((l: any) => l.lvl === 'debug' && l.msg === 'ws call refused' && l.code === code), `${code} logged at debug`);
  }
});

t.test('a flood of bad frames writes no error line and gets every frame answered', async (t) => {
  const s = await rawSocket(server.url, { params: { authorization: `Bearer ${key}` } });
  t.teardown(() => s.ws.close());
  const before = errorLines().length;
  for (let i = 0; i < 150; i++) s.send(i % 3 === 0 ? '1' : i % 3 === 1 ? '{}' : `{"id":${i},"method":"x"}`);
  await s.until((ms) => ms.length >= 150);
  t.ok(s.messages.every((m) => m.error?.json?.data?.code === 'PARSE_ERROR'), 'all PARSE_ERROR');
  t.equal(errorLines().length, before, 'no error-level log line');
});

t.test('a batch over 10 calls: each call is answered by its id', async (t) => {
  const s = await rawSocket(server.url, { params: { authorization: `Bearer ${key}` } });
  t.teardown(() => s.ws.close());
  s.send(Array.from({ length: 12 }, (_, i) => ({ id: `b${i}`, method: 'query', params: { path: 'health.check' } })));
  await s.until((ms) => ms.length >= 12);
  t.same(s.messages.map((m) => m.id).sort(), Array.from({ length: 12 }, (_, i) => `b${i}`).sort());
  t.ok(s.messages.every((m) => m.error.json.data.code === 'BAD_REQUEST' && /at most 10 calls per frame/.test(m.error.json.message)));
});

t.test('frames over 64 KiB close the socket with 1009 and a reason', async (t) => {
  for (const size of [64 * 1024 + 1, 200 * 1024, 1000 * 1024]) {
    const s = await rawSocket(server.url, { params: { authorization: `Bearer ${key}` } });
    s.send('x'.repeat(size));
    const close = await s.closedP;
    t.equal(close.code, 1009, `${size} bytes: 1009`);
    t.match(close.reason, /frame too big \(at most 65536 bytes\)/);
  }
  const ok = await rawSocket(server.url, { params: { authorization: `Bearer ${key}` } });
  ok.send({ id: 1, method: 'query', params: { path: 'health.check', input: { json: undefined } }, pad: 'x'.repeat(60 * 1024) });
  t.match(await ok.next((m) => m.id === 1), { result: { data: { json: { ok: true } } } }, 'a frame under the limit is served');
  ok.ws.close();
  t.same((await api('GET', '/health')).body, { ok: true }, 'server still up');
});
