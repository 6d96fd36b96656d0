import t from 'tap';
import { call, startTestServer } from '../helpers/server.ts';
import { contractViolation } from '../helpers/contract.ts';
import { isErrorBody } from '../helpers/fixtures.ts';
import { loadOperations, seedWorld, stringSlots, target, validParts, withValue, type Operation } from './api-model.ts';

/*
 * The text rule, proved on the API as documented: every string a route's input takes (path and query
 * parameters, body fields at any depth) gets a NUL, lone surrogates, 10 000 characters, right-to-left
 * text and emoji, in an otherwise valid request through the real REST door. Never a 5xx; an error is
 * exactly {error}; NUL, lone surrogates and 10 000 characters are a 400 that names the field (the
 * board page excepted: it takes any query, as a web page must); right-to-left text and emoji that a
 * route accepts come back as sent.
 */
const server = await startTestServer(t);
const world = await seedWorld(server);
const ops = await loadOperations(server.url);
// Writes that end a record (delete, close, take, resolve) last, so the other routes find theirs.
const ending = (op: Operation) => op.method === 'DELETE' || /\/(close|take|resolve)$/.test(op.path);
ops.sort((a, b) => Number(ending(a)) - Number(ending(b)));
/** The board's pages (the board, the alarm kiosk) answer any query with the page (their router says why); nothing of it is stored. */
const takesAnyQuery = (op: Operation) => op.method === 'GET' && (op.path === '/dispatch' || op.path === '/dispatch/alarm');

/**
 * A batch route (POST /medic/events) judges each item alone: a forbidden value inside item i is that
 * item's rejection — 200 with `results[i]` rejected, code 400, naming `events[i].field` — not a 400 of
 * the whole request. Null when the answer is not such a rejection.
 */
function itemRejection(res: { status: number; body: unknown }, slot: { name: string }) {
  const m = /^(\w+)\.(\d+)\.(.+)$/.exec(slot.name);
  const r = m && res.status === 200 ? (res.body as { results?: { status?: string; code?: number; error?: string }[] })?.results?.[Number(m[2])] : undefined;
  return m && r?.status === 'rejected' ? { code: r.code, error: String(r.error), name: `${m[1]}[${m[2]}].${m[3]}` } : null;
}
const freeText = (schema: Record<string, unknown>, value: string) =>
  ['pattern', 'enum', 'const', 'format', 'contentEncoding'].every((k) => schema[k] === undefined) && value.length <= Number(schema.maxLength ?? Infinity);
/**
 * Free text that fits: no pattern, choice, format or encoding narrows the field (or, for a field of
 * several forms, one of its string forms: a game time is an ISO 8601 string or a number) and
 * `value` is short enough, so it must pass.
 */
const takesText = (slot: { schema: Record<string, unknown> }, value: string) => {
  const forms = (slot.schema.anyOf ?? slot.schema.oneOf) as Record<string, unknown>[] | undefined;
  return freeText(slot.schema, value) && (!forms || forms.some((f) => f.type === 'string' && freeText(f, value)));
};
/** A base64 blob (an image) is not text: 10 000 characters of it are well-formed base64, refused for what they decode to (415). */
const isBlob = (slot: { schema: { contentEncoding?: unknown } }) => slot.schema.contentEncoding === 'base64';

let n = 0;
/** A mark no derived value keeps (a rank id made of a name drops it), so a string holding it holds the value sent. */
const mark = () => `№${++n}`;
const values = () => [
  { label: 'NUL', value: `Rettung\u0000swache ${mark()}` },
  { label: 'lone high surrogate', value: `Wache \ud83d ${mark()}` },
  { label: 'lone low surrogate', value: `\ude91 Wache ${mark()}` },
  { label: '10 000 characters', value: 'W'.repeat(10_000) },
  { label: 'right-to-left', value: `مركز الإسعاف ${mark()}`, valid: true },
  { label: 'emoji', value: `🚑 Einsatz 👩‍🚒 ${mark()}`, valid: true },
];

/** Every string in a JSON value. */
const stringsOf = (v: unknown): string[] => typeof v === 'string' ? [v]
  : Array.isArray(v) ? v.flatMap(stringsOf) : v && typeof v === 'object' ? Object.values(v).flatMap(stringsOf) : [];

t.test('every string of every route\'s input: no 5xx, errors are {error}, what the text rule forbids is a 400 naming the field, accepted text round-trips', async (t) => {
  let requests = 0, slotsTried = 0, roundTrips = 0, refused = 0;
  const statuses = new Map<number, number>();
  const violations: string[] = [];
  for (const op of ops) {
    const base = validParts(op, world);
    for (const slot of stringSlots(op)) {
      slotsTried++;
      for (const { label, value, valid } of values()) {
        const parts = withValue(base, slot, value);
        const path = target(op, parts);
        const res = await call(server.url, op.method, path, {
          ...(op.sessionOnly ? { session: world.session } : { key: world.key }),
          ...(op.body || parts.body !== undefined ? { body: parts.body } : {}),
          skipContract: true,
        });
        requests++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const what = `${op.method} ${op.path} ${slot.in} ${slot.name} = ${label}`;
        if (res.status >= 500) {
          t.fail(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
          continue;
        }
        if (res.status >= 400) {
          const body = res.body as Record<string, unknown>;
          if (!isErrorBody(body)) t.fail(`${what}: ${res.status} is not {error, reason}: ${res.text.slice(0, 200)}`);
        }
        const item = itemRejection(res, slot);
        if (!valid && item) {
          const codes = isBlob(slot) && label === '10 000 characters' ? [400, 415] : [400];
          if (!codes.includes(item.code!) || !item.error.includes(item.name)) t.fail(`${what}: expected item ${item.name} rejected with ${codes.join(' or ')} naming it, got ${item.code} ${item.error.slice(0, 200)}`);
          else refused++;
        } else if (!valid && !(slot.in === 'query' && takesAnyQuery(op))) {
          const error = String((res.body as { error?: unknown })?.error ?? '');
          if (res.status !== 400 || !error.includes(slot.name)) t.fail(`${what}: expected a 400 naming ${slot.name}, got ${res.status} ${res.text.slice(0, 200)}`);
          else refused++;
        } else if (valid && item && takesText(slot, value)) {
          t.fail(`${what}: a valid value, but item ${item.name} was rejected: ${item.code} ${item.error.slice(0, 200)}`);
        } else if (valid && res.status < 400) {
          const mark = value.slice(value.lastIndexOf(' ') + 1);
          for (const s of stringsOf(res.body).filter((s) => s.includes(mark))) {
            if (!s.includes(value.trim())) t.fail(`${what}: came back as ${JSON.stringify(s)}`);
            else roundTrips++;
          }
        }
        const violation = await contractViolation(server.url, op.method, `${server.url}${path}`, res);
        if (violation) violations.push(`${what}: ${violation}`);
      }
    }
  }
  t.ok(slotsTried >= 80, `${slotsTried} string places in ${ops.length} routes`);
  t.ok(refused >= slotsTried * 3, `${refused} forbidden values refused with a 400 naming the field`);
  t.ok(roundTrips >= 20, `${roundTrips} right-to-left or emoji values accepted and answered back unchanged`);
  t.ok(statuses.has(200) && statuses.has(400), `answers: ${[...statuses].map(([s, c]) => `${s}×${c}`).join(', ')} in ${requests} requests`);
  t.same(violations, [], 'every answer is one the OpenAPI document promises');
});
