import t from 'tap';
import { startTestServer, call } from '../helpers/server.ts';

// The OpenAPI document against the spec's conventions and routes: "ids are strings; timestamps are
// ISO 8601 in UTC", and `/invite` (spec §5.4, public) is a route of the reference, not only a
// sentence in a description.
const server = await startTestServer(t);
const openapi = (await call(server.url, 'GET', '/docs/openapi.json')).body;

type Schema = Record<string, any>;
const typesOf = (s: Schema): string[] => [s.type, ...(s.anyOf ?? s.oneOf ?? []).map((o: Schema) => o.type)].flat().filter(Boolean);
const isTime = (name: string) => name === 'at' || name === 'since' || /At$/.test(name);
const isId = (name: string) => name === 'id' || name === 'ids' || /Ids?$/.test(name) || name === 'nextBefore';

/** Every property of a response schema with its path. */
function properties(s: Schema | undefined, path = ''): [string, string, Schema][] {
  if (!s || typeof s !== 'object') return [];
  const out: [string, string, Schema][] = [];
  for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) out.push([`${path}.${k}`, k, v], ...properties(v, `${path}.${k}`));
  if (s.items) out.push(...properties(s.items, `${path}[]`));
  for (const o of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) out.push(...properties(o, path));
  return out;
}

const responses = Object.entries<Record<string, Schema>>(openapi.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) =>
  [`${method.toUpperCase()} ${path}`, op.responses?.['200']?.content?.['application/json']?.schema as Schema | undefined] as const));

t.test('every time an answer carries is an ISO 8601 string, never a number', async (t) => {
  const numbers = responses.flatMap(([op, schema]) => properties(schema).filter(([, name, s]) => isTime(name) && typesOf(s).some((x) => x === 'integer' || x === 'number'))
    .map(([path]) => `${op} ${path}`));
  t.same(numbers, [], 'times as numbers');
  const medic = properties(responses.find(([op]) => op === 'GET /api/v1/medic/patients/{fileId}')?.[1]).filter(([, name]) => isTime(name));
  t.ok(medic.length >= 10, `${medic.length} times in a patient file`);
  t.ok(medic.every(([, , s]) => typesOf(s).includes('string')), 'each a string');
});

t.test('every id an answer carries is a string, never a number', async (t) => {
  const numbers = responses.flatMap(([op, schema]) => properties(schema).filter(([, name, s]) => isId(name) && (typesOf(s).some((x) => x === 'integer' || x === 'number')
    || (s.items && typesOf(s.items).some((x) => x === 'integer' || x === 'number')))).map(([path]) => `${op} ${path}`));
  t.same(numbers, [], 'ids as numbers');
});

t.test('ids are taken as strings: the documented inputs say so', async (t) => {
  const order = openapi.paths['/api/v1/letterheads/order'].put.requestBody.content['application/json'];
  t.ok(typesOf(order.schema.properties.ids.items).includes('string'), 'PUT /letterheads/order ids: strings');
  t.same(order.example.ids.map((id: unknown) => typeof id), ['string'], 'the example sends a string id');
  for (const path of ['/api/v1/uploads/{id}', '/api/v1/letterheads/{id}', '/api/v1/medic/patients/{fileId}']) {
    const op = openapi.paths[path].get ?? openapi.paths[path].patch;
    const param = op.parameters.find((p: Schema) => p.in === 'path');
    t.ok(typesOf(param.schema).includes('string'), `${path}: the path parameter is a string`);
    t.type(param.example, 'string', `${path}: its example is a string`);
  }
});

t.test('/invite is a documented route (spec §5.4): public, a redirect to Discord or 404 without a bot', async (t) => {
  const op = openapi.paths['/api/v1/invite']?.get;
  t.ok(op, 'GET /api/v1/invite is in the OpenAPI document');
  t.same(Object.keys(op?.responses ?? {}).sort(), ['302', '404']);
  t.ok(op?.responses?.['302']?.headers?.Location, 'the 302 names its Location header');
  t.same(op?.security, [], 'no credential');
  const res = await call(server.url, 'GET', '/api/v1/invite');
  t.equal(res.status, 404, 'this server has no bot: 404 as documented (the contract check passed)');
  t.match(res.body.error, /not configured/);
});
