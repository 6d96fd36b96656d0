import type { JsonSchema } from './model.ts';

/** Realistic values for well-known field names; anything else is derived from the schema. */
const known: Record<string, unknown> = {
  badge: 1, callsign: 'RTW-1', externalId: 'notruf-4711', title: 'Verkehrsunfall B27', name: 'Leitstellen-Skript',
  nickname: 'Max Mustermann', status: '3', label: 'Rettungswagen 1', userId: '200000000000000002', guildId: '100000000000000001',
  resolution: 'reached', text: 'Patient an RTW übergeben.', keyword: 'RD 2 - Verkehrsunfall', message: 'Person bewusstlos am Straßenrand.',
};

/**
 * A value valid for `schema` (draft 2020-12 as zod emits it): consts, enums, bounds, lengths and the
 * simple patterns our schemas use. `name` picks a realistic value where one is known and valid.
 */
export function exampleFor(schema: JsonSchema | undefined, name?: string): unknown {
  if (!schema) return null;
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (options) {
    const nonNull = options.filter((o: JsonSchema) => o.type !== 'null');
    const preferred = name && known[name] !== undefined ? nonNull.find((o: JsonSchema) => typeof known[name] === jsonType(o)) : undefined;
    return exampleFor(preferred ?? nonNull[0] ?? options[0], name);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  const hint = name ? known[name] : undefined;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const req = new Set<string>(schema.required ?? []);
      for (const [k, v] of Object.entries<JsonSchema>(schema.properties ?? {})) {
        if (req.has(k) || (known[k] !== undefined && req.size === 0)) out[k] = exampleFor(v, k);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => exampleFor(schema.items, name));
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
      const max = schema.maximum ?? schema.exclusiveMaximum;
      let n = typeof hint === 'number' ? hint : (min ?? 1);
      if (min !== undefined && n < min) n = min;
      if (max !== undefined && n > max) n = max;
      return n;
    }
    case 'boolean':
      return true;
    case 'string': {
      if (schema.format === 'date-time') return '2026-11-21T19:30:00.000Z';
      if (schema.format === 'date') return '2026-11-21';
      if (typeof hint === 'string' && fits(schema, hint)) return hint;
      if (typeof hint === 'number' && fits(schema, String(hint))) return String(hint);
      if (schema.pattern) {
        const sample = fromPattern(schema.pattern, schema.minLength ?? 1);
        if (sample !== null && fits(schema, sample)) return sample;
      }
      let s = 'example';
      if (schema.minLength && s.length < schema.minLength) s = s.padEnd(schema.minLength, 'x');
      if (schema.maxLength && s.length > schema.maxLength) s = s.slice(0, schema.maxLength);
      return s;
    }
    default:
      return hint ?? null;
  }
}

function jsonType(o: JsonSchema): string {
  return o.type === 'integer' ? 'number' : o.type;
}

function fits(schema: JsonSchema, s: string): boolean {
  if (schema.minLength !== undefined && s.length < schema.minLength) return false;
  if (schema.maxLength !== undefined && s.length > schema.maxLength) return false;
  try {
    return !schema.pattern || new RegExp(schema.pattern, 'u').test(s);
  } catch {
    return false;
  }
}

/** The shortest string for anchored patterns built from classes, escapes, literals and quantifiers. */
function fromPattern(pattern: string, minLength: number): string | null {
  const src = pattern.replace(/^\^/, '').replace(/\$$/, '');
  let out = '';
  let i = 0;
  while (i < src.length) {
    let atom: string;
    if (src[i] === '[') {
      const end = src.indexOf(']', i);
      if (end < 0) return null;
      const body = src.slice(i + 1, end).replace(/^\^/, '');
      atom = body.startsWith('\\d') ? '1' : body.match(/[A-Za-z0-9]/)?.[0] ?? body[0];
      i = end + 1;
    } else if (src[i] === '\\') {
      const c = src[i + 1];
      atom = c === 'd' ? '1' : c === 'w' ? 'a' : c === 's' ? ' ' : c;
      i += 2;
    } else if ('()|.'.includes(src[i])) {
      return null;
    } else {
      atom = src[i];
      i++;
    }
    let count = 1;
    const q = /^(\{(\d+)(,(\d*))?\}|[+*?])/.exec(src.slice(i));
    if (q) {
      count = q[0] === '*' || q[0] === '?' ? 0 : q[0] === '+' ? 1 : Number(q[2]);
      i += q[0].length;
    }
    out += atom.repeat(count);
  }
  while (out.length < minLength) out += out.slice(-1) || 'a';
  return out;
}
