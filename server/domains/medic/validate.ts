import type { z } from 'zod';
import { gameId, medicLimits, vitalRanges, type VitalField } from '../../../contract/medic-limits.ts';
import { eventSchemas, eventTypes, GameId, type EventType, type MedicEvent } from './schema.ts';

export type Checked =
  | { ok: true; index: number; event: MedicEvent }
  | { ok: false; index: number; id: string | null; code: 400 | 413 | 415; error: string };

const a = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);
const plural = (n: number | bigint, one: string) => `${n} ${one}${Number(n) === 1 ? '' : 's'}`;

/** Messages relative to the field, so `events[2].heartRate` + message reads as one sentence. */
function message(iss: z.core.$ZodRawIssue): string | undefined {
  if (iss.input === undefined && (iss.code === 'invalid_type' || iss.code === 'invalid_value')) return 'is required';
  switch (iss.code) {
    case 'invalid_type':
      return iss.expected === 'int' ? 'must be an integer' : `must be ${a(String(iss.expected))}`;
    case 'too_big':
      if (iss.origin === 'string') return `has at most ${plural(iss.maximum as number, 'character')}`;
      if (iss.origin === 'array') return `has at most ${plural(iss.maximum as number, 'entry').replace('entrys', 'entries')}`;
      return `must be at most ${iss.maximum}`;
    case 'too_small':
      if (iss.origin === 'string') return Number(iss.minimum) === 1 ? 'must not be empty' : `has at least ${plural(iss.minimum as number, 'character')}`;
      if (iss.origin === 'array') return `needs at least ${plural(iss.minimum as number, 'entry').replace('entrys', 'entries')}`;
      return `must be at least ${iss.minimum}`;
    case 'invalid_value':
      return `must be one of ${iss.values.map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `has ${iss.keys.length === 1 ? 'an unknown field' : 'unknown fields'} ${iss.keys.join(', ')}`;
    case 'invalid_key':
      return 'is not a valid name (1..40 characters)';
    default:
      return undefined;
  }
}

const where = (index: number, path: PropertyKey[]) =>
  `events[${index}]${path.map((p) => (typeof p === 'number' ? `[${p}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(String(p)) ? `.${String(p)}` : `[${JSON.stringify(String(p))}]`)).join('')}`;

const idOf = (raw: unknown): string | null => {
  const id = (raw as { id?: unknown } | null)?.id;
  return GameId.safeParse(id).success ? (id as string) : null;
};

/**
 * Checks one event of a batch against its type's schema: the event, or a 400 whose error names the
 * field (`events[2].heartRate must be at most 300`). Images are checked later (their bytes).
 */
export function checkEvent(raw: unknown, index: number): Checked {
  if (isPlainVitals(raw)) return { ok: true, index, event: raw as MedicEvent };
  const id = idOf(raw);
  const fail = (error: string): Checked => ({ ok: false, index, id, code: 400, error });
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return fail(`events[${index}] must be an object`);
  const type = (raw as { type?: unknown }).type;
  if (type === undefined) return fail(`events[${index}].type is required`);
  if (typeof type !== 'string' || !Object.hasOwn(eventSchemas, type)) {
    return fail(`events[${index}].type ${typeof type === 'string' ? `"${type.slice(0, 40)}" is unknown: it` : ''} must be one of ${eventTypes.join(', ')}`.replace('type  must', 'type must'));
  }
  const parsed = eventSchemas[type as EventType].safeParse(raw, { error: message });
  if (parsed.success) return { ok: true, index, event: parsed.data as MedicEvent };
  const iss = parsed.error.issues[0];
  return fail(`${where(index, iss.path)} ${iss.message}`);
}

const isGameId = (s: unknown) => typeof s === 'string' && s.length <= gameId.maxLength && gameId.pattern.test(s);

/**
 * The bulk of every batch, checked without zod: a vitals event that is valid as it is (the same
 * rules as its schema). Anything else, valid or not, goes through the schema, which also words
 * the errors.
 */
function isPlainVitals(raw: unknown): boolean {
  if (raw === null || typeof raw !== 'object' || Object.getPrototypeOf(raw) !== Object.prototype) return false;
  const e = raw as Record<string, unknown>;
  if (e.type !== 'vitals' || !isGameId(e.id) || !isGameId(e.citizenId)) return false;
  const at = e.at;
  if (typeof at !== 'number' || !Number.isInteger(at) || at < medicLimits.earliestAt || at > Date.now() + medicLimits.aheadMs) return false;
  let fields = 0;
  for (const k in e) {
    if (k === 'type' || k === 'id' || k === 'citizenId' || k === 'at') continue;
    if (!Object.hasOwn(vitalRanges, k)) return false;
    const { min, max, integer } = vitalRanges[k as VitalField];
    const x = e[k];
    if (x === undefined) continue;
    if (typeof x !== 'number' || !(x >= min && x <= max) || (integer && !Number.isInteger(x))) return false;
    fields++;
  }
  return fields > 0;
}
