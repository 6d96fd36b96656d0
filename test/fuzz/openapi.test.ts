import t from 'tap';
import fc from 'fast-check';
import { exampleFor } from '../../server/docs/examples.ts';
import { modules } from '../../contract/modules.ts';
import { startTestServer } from '../helpers/server.ts';
import { contractViolation } from '../helpers/contract.ts';
import { RawConnection, type RawResponse } from '../helpers/raw-http.ts';
import { fieldSlots, loadOperations, percentEncode, seedWorld, withValue, type JsonSchema, type Operation, type Parts, type World } from './api-model.ts';

/*
 * Fuzzing generated from the OpenAPI document: for every route, requests built from its parameter
 * and body schemas, mixed with hostile values (wrong types, huge and odd numbers, NaN-like strings,
 * NUL and lone surrogates, deep or odd JSON, unknown and poisoned fields, path segments with
 * encoded slashes and dots, bodies that are not JSON objects, wrong content types), sent with an
 * unscoped key, a scoped key, a session, a bad credential or none, through the real server on a
 * raw keep-alive connection. Every answer: below 500, an error body exactly {error: string}, a
 * status and body the document promises, and the connection still usable.
 *
 * FUZZ_RUNS (default 4000, spread over the routes by how many places a value can go in each) and FUZZ_SEED (default fixed) reproduce a run;
 * a failure prints the seed and the counterexample.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 4000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

const server = await startTestServer(t);
const world = await seedWorld(server);
const ops = await loadOperations(server.url);

// ---- hostile values ------------------------------------------------------------------------------

const nested = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};
/** What breaks text: NUL, lone surrogates, length; drawn often, since one in a name is enough. */
const textBreaker = fc.constantFrom('\u0000', 'a\u0000b', 'Name \u0000', '\ud800', '\udc00x', 'x\ud83d', 'Wache \ude91', 'W'.repeat(10_000));
const hostileString = fc.oneof(
  { weight: 3, arbitrary: textBreaker },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '', ' ', '\t', 'NaN', 'Infinity', '-Infinity', '1e309', '-0', '0x1F', '1_000', ' 1', '1 ', '01', '0'.repeat(30) + '1', '9'.repeat(40), '-1',
      '1.5', '1e3', 'null', 'true', '[]', '{}', '__proto__', 'constructor', 'prototype', '../../etc/passwd', '..', '.', '%00', '%2F',
      '<script>alert(1)</script>', "' OR 1=1 --", '\\', '"', 'مرحبا بالعالم', '🚑👩‍🚒', '\u202eevil', '\ufeffBOM', 'Ａ', 'İ', 'ß', '\r\n', 'a\nb',
    ),
  },
  { weight: 1, arbitrary: fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 24 }).map((units) => String.fromCharCode(...units)) }, // any UTF-16, lone surrogates too
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);
const hostileNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, 0.1, 1e308, -1e308, 2 ** 31, 2 ** 31 - 1, 2 ** 53, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 5e-324, 999999999999),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);
const hostileAny: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], { '': '' }, nested(60), nested(2000), Array.from({ length: 3000 }, (_, i) => i)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);
/** Field names a client must not be able to bind, or that poison a merge. */
const unknownKey = fc.constantFrom('extra', 'guildId', 'isAdmin', 'id', 'createdAt', 'seq', '__proto__', 'constructor', 'toString', '');

/** A hostile value for a place of this schema: mostly strings where strings go, numbers where numbers go. */
function hostileFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const types = [schema.type, ...(schema.anyOf ?? schema.oneOf ?? []).map((o: JsonSchema) => o.type)].flat();
  if (types.includes('string')) return fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 1, arbitrary: hostileAny });
  if (types.includes('integer') || types.includes('number')) return fc.oneof({ weight: 2, arbitrary: hostileNumber }, { weight: 1, arbitrary: hostileString }, { weight: 1, arbitrary: hostileAny });
  return hostileAny;
}

/** An own property, even `__proto__` (plain assignment would set the prototype instead). */
const own = (o: Record<string, unknown>, k: string, v: unknown) => Object.defineProperty(o, k, { value: v, enumerable: true, configurable: true, writable: true });

// ---- values from the document's schemas, some hostile ----------------------------------------------

const MISSING = Symbol('missing');

/** A value the schema allows; with `clean` false, nested values are sometimes hostile (see valueFor). */
function validFor(schema: JsonSchema, depth = 0, clean = true): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return fc.oneof(...options.map((o: JsonSchema) => (clean ? validFor(o, depth) : valueFor(o, depth))));
  const type = Array.isArray(schema.type) ? schema.type : [schema.type];
  const arbs: fc.Arbitrary<unknown>[] = [];
  for (const ty of type) {
    if (ty === 'null') arbs.push(fc.constant(null));
    else if (ty === 'string') {
      const max = Math.min(schema.maxLength ?? 40, 200);
      if (schema.pattern) arbs.push(fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? Infinity) && s.length >= (schema.minLength ?? 0)));
      else arbs.push(fc.string({ unit: 'grapheme', minLength: schema.minLength ?? 0, maxLength: max }));
      arbs.push(fc.constant(exampleFor(schema)));
    } else if (ty === 'integer' || ty === 'number') {
      const min = schema.minimum ?? -1e6, max = schema.maximum ?? 1e6;
      arbs.push(ty === 'integer' ? fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) }) : fc.double({ min, max, noNaN: true }));
    } else if (ty === 'boolean') arbs.push(fc.boolean());
    else if (ty === 'array') {
      const items = clean ? validFor(schema.items ?? {}, depth + 1) : valueFor(schema.items ?? {}, depth + 1);
      arbs.push(fc.array(items, { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 12) }));
      // Lists of names (scopes, capabilities) must not repeat: a clean one has no repeats.
      if (clean) arbs[arbs.length - 1] = arbs[arbs.length - 1].map((a) => [...new Set(a as unknown[])]).filter((a) => a.length >= (schema.minItems ?? 0));
    } else if (ty === 'object' || schema.properties) arbs.push(objectFor(schema, depth, clean));
    else arbs.push(fc.jsonValue({ maxDepth: 2 })); // {}: anything
  }
  return arbs.length === 1 ? arbs[0] : fc.oneof(...arbs);
}

/** Mostly a value the schema allows, sometimes anything hostile. */
function valueFor(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  return depth > 4 ? hostileAny : fc.oneof({ weight: 5, arbitrary: validFor(schema, depth, false) }, { weight: 1, arbitrary: hostileAny });
}

/** An object of the schema's fields: required ones there, optional ones coming and going; unless `clean`, some missing, hostile or unknown. */
function objectFor(schema: JsonSchema, depth: number, clean: boolean): fc.Arbitrary<Record<string, unknown>> {
  const required = new Set<string>(schema.required ?? []);
  const fields = Object.entries<JsonSchema>(schema.properties ?? {}).map(([k, s]) => {
    const arb = clean ? validFor(s, depth + 1) : valueFor(s, depth + 1);
    if (!required.has(k)) return [k, fc.oneof(arb, fc.constant(MISSING))] as const;
    return [k, clean ? arb : fc.oneof({ weight: 9, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(MISSING) })] as const;
  });
  return fc.tuple(
    fc.tuple(...fields.map(([, arb]) => arb)),
    clean ? fc.constant(null) : fc.option(fc.array(fc.tuple(unknownKey, hostileAny), { minLength: 1, maxLength: 2 }), { freq: 6 }),
  ).map(([values, extra]) => {
    const out: Record<string, unknown> = {};
    fields.forEach(([k], i) => values[i] !== MISSING && own(out, k, values[i]));
    for (const [k, v] of extra ?? []) own(out, k, v);
    return out;
  });
}

// ---- requests: a valid one, then a few hostile mutations -------------------------------------------

interface FuzzRequest { method: string; target: string; headers: Record<string, string>; body: string | null; cred: string }

const oddSegment = fc.constantFrom('..', '.', '%2F', 'a%2Fb', '%2e%2e', '%2E', '%00', '%', '%ZZ', '%E0%A4%A', '%ED%A0%80', 'x'.repeat(300), '%20', '+', ';', ',', '%23', '%3F', '~', '%C0%AF', '');
const oddBody = fc.constantFrom(
  '', 'null', '[]', '[1,2]', '"x"', '1', 'true', '{', '{"a":', '{"a":1}garbage', '\ufeff{}', '{"a":1,"a":2}', '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"x":1}}}', '{"\\u005f_proto__":{}}', '['.repeat(5000) + ']'.repeat(5000), '{"a":' + '['.repeat(3000) + ']'.repeat(3000) + '}',
  '{"badge":1e400}', '{"badge":-0}', '{"badge":123456789012345678901234567890}', 'x'.repeat(1024 * 1024 + 10),
);
const oddType = fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/jsonx', 'multipart/form-data; boundary=x', '');
const creds = ['key', 'scoped', 'session', 'none', 'bad key', 'bad session', 'other guild'] as const;

type Mutation =
  | { kind: 'value'; slot: number; value: unknown }
  | { kind: 'drop'; slot: number }
  | { kind: 'unknown field'; key: string; value: unknown }
  | { kind: 'segment'; index: number; raw: string }
  | { kind: 'query'; key: string; value: string }
  | { kind: 'body'; text: string }
  | { kind: 'content type'; type: string }
  | { kind: 'credential'; cred: (typeof creds)[number] }
  | { kind: 'method'; method: string };

/** A request for `op` as the document describes it, then up to three mutations, each hostile in one way. */
function requestFor(op: Operation, w: World): fc.Arbitrary<FuzzRequest> {
  const textOf = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');
  const slots = fieldSlots(op);
  const pathNames = op.params.filter((p) => p.in === 'path').map((p) => p.name);
  const hasBody = op.method !== 'GET' && op.method !== 'DELETE';
  const known = (name: string) => w.values[`${op.path}:${name}`] ?? w.values[name];
  // Path parameters name existing records most of the time; query and body are drawn from their schemas.
  const valid = fc.record({
    path: fc.tuple(...op.params.filter((p) => p.in === 'path').map((p) => known(p.name) !== undefined
      ? fc.oneof({ weight: 3, arbitrary: fc.constant<unknown>(known(p.name)) }, { weight: 1, arbitrary: validFor(p.schema) })
      : validFor(p.schema))),
    query: fc.tuple(...op.params.filter((p) => p.in === 'query').map((p) => p.required ? validFor(p.schema) : fc.option(validFor(p.schema), { nil: MISSING }))),
    body: hasBody ? (op.body ? validFor(op.body) : fc.constant({})) : fc.constant(undefined),
  });
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { weight: slots.length ? 12 : 0, arbitrary: fc.nat(Math.max(0, slots.length - 1)).chain((slot) => fc.record({ kind: fc.constant('value' as const), slot: fc.constant(slot), value: hostileFor(slots[slot].schema) })) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), slot: fc.nat(Math.max(0, slots.length - 1)) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('unknown field' as const), key: unknownKey, value: hostileAny }) },
    { weight: pathNames.length ? 3 : 0, arbitrary: fc.record({ kind: fc.constant('segment' as const), index: fc.nat(Math.max(0, pathNames.length - 1)), raw: oddSegment }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('query' as const), key: fc.constantFrom('x', '__proto__', 'guild', 'limit', 'badge', 'a[b]', ''), value: hostileString }) },
    { weight: hasBody ? 2 : 0, arbitrary: fc.record({ kind: fc.constant('body' as const), text: oddBody }) },
    { weight: hasBody ? 1 : 0, arbitrary: fc.record({ kind: fc.constant('content type' as const), type: oddType }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('credential' as const), cred: fc.constantFrom(...creds) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('method' as const), method: fc.constantFrom('HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE') }) },
  );
  const primary = op.sessionOnly ? 'session' : op.access === 'none' ? 'none' : 'key';
  // Mostly one mutation, so that what it breaks is not hidden behind another refusal.
  const mutations = fc.oneof({ weight: 1, arbitrary: fc.constant([]) }, { weight: 5, arbitrary: mutation.map((m) => [m]) }, { weight: 1, arbitrary: fc.array(mutation, { minLength: 2, maxLength: 3 }) });
  return fc.tuple(valid, mutations).map(([v, mutations]) => {
    const parts: Parts = {
      path: Object.fromEntries(pathNames.map((name, i) => [name, v.path[i]])),
      query: Object.fromEntries(op.params.filter((p) => p.in === 'query').map((p, i) => [p.name, v.query[i]]).filter(([, x]) => x !== MISSING)),
      body: v.body,
    };
    let next = parts;
    const raw: Record<string, string> = {};
    const extraQuery: string[] = [];
    let bodyText: string | null = null;
    let type = hasBody ? 'application/json' : null;
    let cred: string = primary;
    let method = op.method;
    for (const m of mutations) {
      if ((m.kind === 'value' || m.kind === 'drop') && slots.length) {
        const slot = slots[m.slot];
        next = withValue(next, slot, m.kind === 'drop' ? undefined : m.value);
        if (m.kind === 'drop' && slot.in === 'query') delete next.query[slot.name];
      } else if (m.kind === 'unknown field') {
        if (hasBody) {
          const body = next.body !== null && typeof next.body === 'object' && !Array.isArray(next.body) ? { ...(next.body as object) } : {};
          next = { ...next, body: own(body as Record<string, unknown>, m.key, m.value) };
        } else extraQuery.push(`${percentEncode(m.key)}=${percentEncode(textOf(m.value))}`);
      } else if (m.kind === 'segment' && pathNames.length) raw[pathNames[m.index]] = m.raw;
      else if (m.kind === 'query') extraQuery.push(`${percentEncode(m.key)}=${percentEncode(m.value)}`);
      else if (m.kind === 'body') bodyText = m.text;
      else if (m.kind === 'content type') type = m.type;
      else if (m.kind === 'credential') cred = m.cred;
      else if (m.kind === 'method') method = m.method;
    }
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => raw[name] ?? percentEncode(textOf(next.path[name])));
    const query = [
      ...Object.entries(next.query).filter(([, x]) => x !== undefined).map(([k, x]) => `${percentEncode(k)}=${percentEncode(textOf(x))}`),
      ...extraQuery,
    ].join('&');
    const headers: Record<string, string> = {};
    if (cred === 'key') headers.authorization = `Bearer ${w.key}`;
    if (cred === 'scoped') headers.authorization = `Bearer ${w.scoped}`;
    if (cred === 'bad key') headers.authorization = `Bearer ${w.key.slice(0, -1)}x`;
    if (cred === 'session' || cred === 'bad session' || cred === 'other guild') {
      headers.cookie = cred === 'bad session' ? `${w.session.cookie.split('=')[0]}=nope` : w.session.cookie;
      headers['x-guild-id'] = cred === 'other guild' ? '999999999999999999' : w.session.guildId;
    }
    if (type) headers['content-type'] = type;
    const body = hasBody ? bodyText ?? (next.body === undefined ? null : JSON.stringify(next.body)) : null;
    return { method, target: query ? `${path}?${query}` : path, headers, body, cred };
  });
}

// ---- sending -----------------------------------------------------------------------------------------

let conn: RawConnection | null = null;
/** Sends on the kept-alive connection and reads the answer; a connection that fails is dropped, so the next run starts clean. */
async function send(req: FuzzRequest): Promise<RawResponse> {
  if (!conn || conn.closed) conn = await RawConnection.open(server.port);
  const c = conn;
  try {
    const body = req.body === null ? null : Buffer.from(req.body, 'utf8');
    const head = [`${req.method} ${req.target} HTTP/1.1`, 'host: 127.0.0.1', ...Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`)];
    if (body) head.push(`content-length: ${body.length}`);
    await c.write(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body ?? Buffer.alloc(0)]));
    const res = await c.read({ head: req.method === 'HEAD', timeoutMs: 10_000 });
    if (req.method === 'HEAD') {
      // A body sent after HEAD headers would be read as the next answer: the next answer must parse.
      await c.write('GET /api/v1/health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
      const next = await c.read({ timeoutMs: 10_000 }).catch((err: Error) => ({ status: 0, text: err.message }));
      if (next.status !== 200) throw new Error(`after the HEAD answer the connection is out of step: ${next.text.slice(0, 200)}`);
    }
    return res;
  } catch (err) {
    c.close();
    conn = null;
    throw err;
  }
}

/** What is wrong with an answer, or null. */
async function problem(req: FuzzRequest, res: RawResponse): Promise<string | null> {
  if (res.status >= 500) return `status ${res.status}: ${res.text.slice(0, 300)}`;
  if (req.method === 'HEAD') return null; // no body to look at; one sent anyway would break the next read
  let json: unknown;
  if ((res.headers['content-type'] ?? '').includes('application/json')) {
    try {
      json = JSON.parse(res.text);
    } catch {
      return `status ${res.status}: a JSON content type with a body that is not JSON: ${res.text.slice(0, 200)}`;
    }
  }
  if (res.status >= 400) {
    const o = json as Record<string, unknown> | undefined;
    if (!o || typeof o !== 'object' || Object.keys(o).filter((k) => k !== 'params').join() !== 'error,reason' || typeof o.error !== 'string' || !o.error || typeof o.reason !== 'string') {
      return `status ${res.status}: error body is not {error: string, reason: string, params?}: ${res.text.slice(0, 200)}`;
    }
  }
  const violation = await contractViolation(server.url, req.method, `${server.url}${req.target}`, { status: res.status, body: json ?? res.text, headers: new Headers(res.headers) });
  return violation ? `contract: ${violation}` : null;
}

/** Undo what a run may have switched off for the runs after it: modules, and the session user's admin rights. */
async function restoreWorld() {
  const on = Object.fromEntries(modules.map((m) => [m, true]));
  const res = await fetch(`${server.url}/api/v1/admin/modules`, { method: 'PATCH', headers: { authorization: `Bearer ${world.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ modules: on }) });
  if (res.status !== 200) throw new Error(`restoring modules: ${res.status} ${await res.text()}`);
  await server.sql`update people set is_admin = true where guild_id = ${world.guildId} and user_id = ${world.values.userId}`;
}

t.test(`every route, ${RUNS} runs from the OpenAPI document (seed ${SEED})`, async (t) => {
  t.comment(`FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} reproduce this run`);
  // Runs per route: ten at least, the rest shared by the number of places a value can go.
  const places = ops.map((op) => 1 + fieldSlots(op).length);
  const total = places.reduce((a, b) => a + b, 0);
  const statuses = new Map<number, number>();
  let sent = 0;
  for (const [i, op] of ops.entries()) {
    await restoreWorld();
    const details = await fc.check(fc.asyncProperty(requestFor(op, world), async (req) => {
      const res = await send(req);
      sent++;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const wrong = await problem(req, res);
      if (wrong) throw new Error(wrong);
    }), { seed: SEED + i, numRuns: Math.max(10, Math.round((RUNS * places[i]) / total)), endOnFailure: false });
    if (details.failed) {
      const ce = details.counterexample?.[0] as FuzzRequest | undefined;
      const shown = ce && { ...ce, body: ce.body && ce.body.length > 300 ? `${ce.body.slice(0, 300)}… (${ce.body.length} characters)` : ce.body, target: ce.target.length > 300 ? `${ce.target.slice(0, 300)}…` : ce.target };
      t.fail(`${op.method} ${op.path}: ${(details.errorInstance as Error)?.message}`, { seed: SEED + i, path: details.counterexamplePath, request: shown, reproduce: `FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}` });
    }
  }
  t.comment(`${sent} requests (shrinking included); answers: ${[...statuses].sort(([a], [b]) => a - b).map(([s, c]) => `${s}×${c}`).join(', ')}`);
  t.ok(statuses.has(200) && statuses.has(400) && statuses.has(401) && statuses.has(403) && statuses.has(404), 'the runs reached the handlers and every kind of refusal');
  conn?.close();
});
