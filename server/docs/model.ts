import { z } from 'zod';
import type { RestRoute } from '../transport/routes.ts';
import { plainRoutes } from './plain-routes.ts';

/** JSON Schema as zod 4 emits it (draft 2020-12). */
export type JsonSchema = Record<string, any>;

export interface DocParam { name: string; in: 'path' | 'query'; required: boolean; schema: JsonSchema; description?: string }

/** One documented route: everything the four outputs show, derived from the procedure alone. */
export interface DocRoute {
  id: string;
  method: string;
  /** Spec style, relative to /api/v1. */
  path: string;
  fullPath: string;
  tag: string;
  summary: string;
  access: string;
  capability?: string;
  scopes: string[];
  sessionOnly: boolean;
  module?: string;
  audit?: string;
  topics: string[];
  params: DocParam[];
  body: JsonSchema | null;
  /** How the body is sent: JSON, or (rest.multipart routes) a form with one file field. */
  bodyType: 'application/json' | 'multipart/form-data';
  bodyRequired: boolean;
  response: JsonSchema | null;
  produces: string;
  statuses: { status: number; meaning: string }[];
  /** OpenAPI response objects by status, for routes whose answers the procedure model cannot say (plain-routes.ts). */
  responses?: Record<string, unknown>;
}

const toJson = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const out = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: (ctx) => {
      const def = (ctx.zodSchema as { _zod: { def: { type: string } } })._zod.def;
      if (def.type === 'date') Object.assign(ctx.jsonSchema, { type: 'string', format: 'date-time' });
    },
  }) as JsonSchema;
  delete out.$schema;
  return out;
};

/** The access line a reader sees: who may call the route. */
export function accessText(r: Pick<DocRoute, 'access' | 'capability' | 'scopes' | 'sessionOnly'>): string {
  if (r.access === 'none') return 'public (no credential)';
  const who: string[] = [];
  if (r.sessionOnly) who.push('session only (an API key gets 403)');
  else who.push(r.scopes.length ? `API key (unscoped, or scoped with ${r.scopes.join(' or ')})` : 'API key (unscoped only)');
  if (!r.sessionOnly) who.push('or session');
  const rank = r.access === 'admin' ? `admin rights${r.capability ? ` or capability ${r.capability}` : ''}`
    : r.capability ? `capability ${r.capability}` : 'any member';
  return `${who.join(' ')}; sessions need ${rank}`;
}

export function buildModel(routes: RestRoute[]): DocRoute[] {
  return routes.map((route) => {
    const meta = route.meta;
    const inputs = route.procedure._def.inputs as z.ZodType[];
    const outputParser = (route.procedure._def as { output?: z.ZodType }).output;
    const input = inputs.length ? toJson(inputs[0], 'input') : null;
    const props: Record<string, JsonSchema> = input?.properties ?? {};
    const required = new Set<string>(input?.required ?? []);
    const params: DocParam[] = route.params.map((name) => ({ name, in: 'path', required: true, schema: props[name] ?? { type: 'string' } }));
    let body: JsonSchema | null = null;
    if (input) {
      const rest = Object.fromEntries(Object.entries(props).filter(([k]) => !route.params.includes(k)));
      if (route.method === 'GET') {
        for (const [name, schema] of Object.entries(rest)) params.push({ name, in: 'query', required: required.has(name), schema, description: schema.description });
      } else if (Object.keys(rest).length || route.params.length === 0) {
        body = { ...input, properties: rest, required: (input.required ?? []).filter((k: string) => !route.params.includes(k)) };
        if (!body.required.length) delete body.required;
      }
    }
    const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
    const multipart = meta.rest?.multipart;
    if (multipart) {
      body = {
        type: 'object', required: [multipart.field], additionalProperties: false,
        properties: { [multipart.field]: { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream', description: `The file (one part with a filename), at most ${multipart.maxBytes} bytes.` } },
      };
    }
    const bodyRequired = hasBody && !!body && (!!multipart || !!(inputs.length && !inputs[0].safeParse(undefined).success));
    const statuses: { status: number; meaning: string }[] = [{ status: 200, meaning: 'Success.' }];
    statuses.push({ status: 400, meaning: meta.errors?.[400] ?? 'Invalid parameter, query or body.' });
    if (meta.access !== 'none') {
      statuses.push({ status: 401, meaning: 'Missing or invalid key or session.' });
      statuses.push({ status: 403, meaning: meta.sessionOnly ? 'Not allowed: rank capability missing, or an API key on a session-only route.' : 'Not allowed: scope or rank capability missing, or admin rights needed.' });
    }
    const notFound = [
      meta.errors?.[404] ?? (route.params.length ? 'No such record in this guild.' : null),
      meta.module ? `Module "${meta.module}" is switched off.` : null,
    ].filter(Boolean).join(' ');
    if (notFound) statuses.push({ status: 404, meaning: notFound });
    if (meta.errors?.[409]) statuses.push({ status: 409, meaning: meta.errors[409] });
    if (hasBody) statuses.push({ status: 413, meaning: meta.errors?.[413] ?? 'Body larger than 1 MiB.' });
    if (route.method !== 'GET') statuses.push({ status: 415, meaning: meta.errors?.[415] ?? 'A body not sent as application/json (a request without any body needs no content type).' });
    if (meta.errors?.[429]) statuses.push({ status: 429, meaning: meta.errors[429] });
    const unavailable = meta.errors?.[503] ?? (meta.access !== 'none' ? 'Database unavailable (PostgreSQL down or restarting); retry after Retry-After seconds.' : null);
    if (unavailable) statuses.push({ status: 503, meaning: unavailable });
    return {
      id: route.procedurePath,
      method: route.method,
      path: route.path,
      fullPath: route.fullPath,
      tag: meta.tag,
      summary: meta.summary,
      access: meta.access,
      capability: meta.capability,
      scopes: meta.scopes ?? [],
      sessionOnly: !!meta.sessionOnly,
      module: meta.module,
      audit: meta.audit,
      topics: meta.topics ?? [],
      params,
      body: hasBody ? body : null,
      bodyType: multipart ? 'multipart/form-data' : 'application/json',
      bodyRequired,
      response: outputParser && !meta.rest?.produces ? toJson(outputParser, 'output') : null,
      produces: meta.rest?.produces ?? 'application/json',
      statuses,
    };
  });
}

/** Every documented route: the procedures' REST bindings, then the routes the transport mounts itself. */
export function documentedRoutes(routes: RestRoute[]): DocRoute[] {
  return [...buildModel(routes), ...plainRoutes];
}

/** Spec tag order (spec §4), then any others alphabetically. */
export const tagOrder = ['Allgemein', 'Statistik', 'Leitstelle', 'Administration', 'Personalblatt', 'Einsatzblatt', 'Einrichtung', 'Medic und InGame', 'Dokumentation'];

export function byTag(model: DocRoute[]): [string, DocRoute[]][] {
  const tags = [...new Set(model.map((r) => r.tag))].sort((a, b) => {
    const ia = tagOrder.indexOf(a), ib = tagOrder.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
  });
  return tags.map((t) => [t, model.filter((r) => r.tag === t).sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))]);
}
