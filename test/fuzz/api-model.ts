import { exampleFor } from '../../server/docs/examples.ts';
import type { Sql } from '../../server/store/db.ts';
import { createApiKey } from '../../server/domains/apikeys/service.ts';
import { scopedKey, seedGuild, signIn, specScopes, unscopedKey } from '../helpers/fixtures.ts';

/**
 * The API as the OpenAPI document describes it, for tests that generate requests from it: every
 * operation with its parameters and body schema, a valid request for it, and where its strings are.
 */
export type JsonSchema = Record<string, any>;

export interface Param { name: string; in: 'path' | 'query'; required: boolean; schema: JsonSchema }
export interface Operation {
  method: string;
  /** As documented, e.g. `/api/v1/admin/clock-status/{badge}`. */
  path: string;
  params: Param[];
  body: JsonSchema | null;
  bodyRequired: boolean;
  sessionOnly: boolean;
  access: string;
  /** Documented response statuses. */
  statuses: string[];
}

export async function loadOperations(base: string): Promise<Operation[]> {
  const doc = await (await fetch(`${base}/docs/openapi.json`)).json() as JsonSchema;
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries<JsonSchema>(doc.paths)) {
    for (const [method, op] of Object.entries<JsonSchema>(methods)) {
      ops.push({
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []).map((p: JsonSchema) => ({ name: p.name, in: p.in, required: !!p.required, schema: p.schema ?? {} })),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
        bodyRequired: !!op.requestBody?.required,
        sessionOnly: !!op['x-session-only'],
        access: op['x-access'],
        statuses: Object.keys(op.responses ?? {}),
      });
    }
  }
  return ops;
}

/** A guild whose records the documented examples name (badge 1, RTW-1, notruf-4711, incident 1, …), with every kind of credential. */
export interface World {
  guildId: string;
  key: string;
  scoped: string;
  session: { cookie: string; guildId: string };
  /** Path parameter values that name existing records, by `<path>:<name>` or by parameter name. */
  values: Record<string, string>;
}

export async function seedWorld(server: { url: string; sql: Sql }): Promise<World> {
  const guildId = String(exampleFor({ type: 'string' }, 'guildId'));
  const userId = String(exampleFor({ type: 'string' }, 'userId'));
  await seedGuild(server.sql, guildId, [
    { userId, nickname: 'Max Mustermann', badge: '1', rank: 'dispatch', admin: true },
    { userId: '200000000000000003', nickname: 'Lena Berger', badge: '2', rank: 'crew' },
  ]);
  const sacrificial = await createApiKey(server.sql, guildId, 'to be deleted', null); // what DELETE /admin/apikeys/{id} names
  const key = await unscopedKey(server.sql, guildId, 'fuzz');
  const scoped = await scopedKey(server.sql, guildId, specScopes, 'fuzz scoped');
  const session = await signIn(server, guildId, userId);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`seeding ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const put = await fetch(`${server.url}/api/v1/admin/call-rate-limit`, { method: 'PUT', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ perMinute: 6000, burst: 1000 }) });
  if (put.status !== 200) throw new Error(`seeding the call rate limit: ${put.status}`);
  await post('/units', { callsign: 'RTW-1', label: 'Rettungswagen 1' });
  await post('/integrations/ingame/calls', { externalId: 'notruf-4711', title: 'Verkehrsunfall B27' });
  await post('/integrations/ingame/calls', { externalId: 'notruf-4712', title: 'Brand' });
  await post('/incidents', { keyword: 'RD 2 - Verkehrsunfall' });
  return { guildId, key, scoped, session, values: { guildId, userId, badge: '1', callsign: 'RTW-1', externalId: 'notruf-4711', number: '1', code: '3', slot: '1', '/api/v1/admin/apikeys/{id}:id': sacrificial.id, '/api/v1/admin/ranks/{id}:id': 'crew' } };
}

/** Where a string can go in an operation's input: a path or query parameter, or a place in the JSON body. */
export interface Slot {
  in: 'path' | 'query' | 'body'; name: string; at: (string | number)[]; schema: JsonSchema;
  /** The union branch (oneOf/anyOf) the field belongs to, and where that branch's object sits: a request for the field needs that branch there. */
  within?: { at: (string | number)[]; schema: JsonSchema };
}

const allowsString = (s: JsonSchema): boolean =>
  s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string')) || (s.anyOf ?? s.oneOf ?? []).some(allowsString)
  || (s.type === undefined && !s.anyOf && !s.oneOf && !s.properties && !s.items); // {} takes anything

/** Every place a value can go: parameters, and every field of the body at any depth (through unions and arrays). */
export function fieldSlots(op: Operation): Slot[] {
  const out: Slot[] = op.params.map((p) => ({ in: p.in, name: p.name, at: [], schema: p.schema }));
  const walk = (schema: JsonSchema, at: (string | number)[], within?: Slot['within']) => {
    if (at.length) out.push({ in: 'body', name: at.join('.'), at, schema, ...(within ? { within } : {}) });
    for (const branch of [schema, ...(schema.anyOf ?? schema.oneOf ?? [])]) {
      const inBranch = branch === schema ? within : { at, schema: branch };
      if (branch.properties) for (const [k, v] of Object.entries<JsonSchema>(branch.properties)) walk(v, [...at, k], inBranch);
      if (branch.items) walk(branch.items, [...at, 0], inBranch);
    }
  };
  if (op.body) walk(op.body, []);
  return out;
}

/** Every place a string can go: the places of `fieldSlots` whose schema takes a string. */
export function stringSlots(op: Operation): Slot[] {
  return fieldSlots(op).filter((slot) => allowsString(slot.schema));
}

/** The parts of a valid request for `op` in `world`: path values, required query values, and a body of the required fields. */
export interface Parts { path: Record<string, unknown>; query: Record<string, unknown>; body: unknown }

export function validParts(op: Operation, world: World): Parts {
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const p of op.params) {
    const value = world.values[`${op.path}:${p.name}`] ?? world.values[p.name] ?? exampleFor(p.schema, p.name);
    if (p.in === 'path') path[p.name] = value;
    else if (p.required) query[p.name] = value;
  }
  const body = op.body ? structuredClone(exampleFor(op.body)) : undefined;
  return { path, query, body };
}

/** `parts` with `value` at `slot`: containers on the way are copied (or made), the rest is shared. */
export function withValue(parts: Parts, slot: Slot, value: unknown): Parts {
  if (slot.in === 'path') return { ...parts, path: { ...parts.path, [slot.name]: value } };
  if (slot.in === 'query') return { ...parts, query: { ...parts.query, [slot.name]: value } };
  const copy = (node: unknown, wantArray: boolean): Record<string | number, unknown> => {
    if (node === null || typeof node !== 'object' || Array.isArray(node) !== wantArray) return (wantArray ? [] : {}) as Record<string | number, unknown>;
    return (Array.isArray(node) ? [...node] : { ...node }) as Record<string | number, unknown>;
  };
  const root = copy(parts.body, false);
  const setAt = (at: (string | number)[], v: unknown) => {
    let node = root;
    at.forEach((key, i) => {
      if (i === at.length - 1) node[key] = v;
      else node = node[key] = copy(node[key], typeof at[i + 1] === 'number');
    });
  };
  // a field of a union branch goes into a valid example of its branch (a discharge's note into a discharge)
  if (slot.within?.at.length) setAt(slot.within.at, structuredClone(exampleFor(slot.within.schema)));
  setAt(slot.at, value);
  return { ...parts, body: root };
}

/**
 * Percent-encodes any string as it would go on the wire: UTF-8, and a lone surrogate as the three
 * bytes it would take (encodeURIComponent throws on it; a hostile client sends it anyway).
 */
export function percentEncode(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else out += encodeURIComponent(s[i]);
  }
  return out;
}

/** The request line's target: path parameters and query values as given (strings as is, anything else as JSON). */
export function target(op: Operation, parts: Parts): string {
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => percentEncode(text(parts.path[name])));
  const query = Object.entries(parts.query).map(([k, v]) => `${percentEncode(k)}=${percentEncode(text(v))}`).join('&');
  return query ? `${path}?${query}` : path;
}
