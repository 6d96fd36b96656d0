import { accessText, byTag, type DocRoute, type JsonSchema } from './model.ts';
import { exampleFor } from './examples.ts';
import { errorReasons } from '../../contract/errors.ts';

const errorRef = { $ref: '#/components/schemas/Error' };

/**
 * `{ error }` as the spec has it, with the additive machine-readable `reason` (contract/errors.ts)
 * and, for reasons whose message has variable parts, `params`.
 */
const errorSchema = {
  type: 'object',
  properties: {
    error: { type: 'string', description: 'Human-readable message.' },
    reason: {
      type: 'string', enum: [...errorReasons],
      description: 'Why, for machines: stable codes to branch and translate on, never the English `error`. A specific reason where the server has one, else the general one of the status (bad_request, not_found, conflict …).',
    },
    params: {
      type: 'object', additionalProperties: { type: 'string' },
      description: 'The variable parts of the message, for reasons that have some (slot_taken: slot and person; module_off: module …).',
    },
  },
  required: ['error'],
  additionalProperties: false,
};

/** OpenAPI 3.1 of every REST route, from the procedures' meta and zod schemas. */
export function openApiDocument(model: DocRoute[], serverUrl: string, cookieName: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of model) {
    const op: JsonSchema = {
      operationId: r.id,
      tags: [r.tag],
      summary: r.summary,
      description: describe(r),
      parameters: r.params.map((p) => ({ name: p.name, in: p.in, required: p.required, schema: p.schema, ...(p.description ? { description: p.description } : {}), example: exampleFor(p.schema, p.name) })),
      responses: r.responses ?? Object.fromEntries(r.statuses.map(({ status, meaning }) => [String(status), status === 200 ? success(r) : { description: meaning, content: { 'application/json': { schema: errorRef } } }])),
      security: security(r),
      'x-access': r.access,
      ...(r.capability ? { 'x-capability': r.capability } : {}),
      ...(r.scopes.length ? { 'x-scopes': r.scopes } : {}),
      ...(r.sessionOnly ? { 'x-session-only': true } : {}),
      ...(r.module ? { 'x-module': r.module } : {}),
      ...(r.audit ? { 'x-audit': r.audit } : {}),
      ...(r.topics.length ? { 'x-topics': r.topics } : {}),
    };
    if (!op.parameters.length) delete op.parameters;
    if (r.body) {
      op.requestBody = { required: r.bodyRequired, content: r.bodyType === 'application/json'
        ? { 'application/json': { schema: r.body, example: exampleFor(r.body) } }
        : { [r.bodyType]: { schema: r.body } } };
    }
    const path = r.fullPath;
    (paths[path] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Dispatch Terminal API',
      version: '1.0.0',
      description: 'Dispatch and staff backend for role-play emergency services, one instance per Discord guild. Every error body is exactly {"error": "..."}. Every GET route also answers HEAD: the same status and headers, without the body. Generated from the server\'s procedures.',
    },
    servers: [{ url: serverUrl }],
    tags: byTag(model).map(([name]) => ({ name })),
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        bearerKey: { type: 'http', scheme: 'bearer', bearerFormat: 'stmp_… API key', description: 'API key of one guild: unscoped `stmp_…` (the guild\'s admin) or scoped `stmp_sc_…` (only routes naming one of its scopes).' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: cookieName, description: 'Session from a one-time login link (HttpOnly cookie).' },
        guildHeader: { type: 'apiKey', in: 'header', name: 'x-guild-id', description: 'With a session: the guild to act in (one the user is a member of).' },
      },
    },
  };
}

function success(r: DocRoute) {
  if (r.produces !== 'application/json') return { description: 'Success.', content: { [r.produces]: { schema: { type: 'string', contentMediaType: r.produces } } } };
  return { description: 'Success.', content: { 'application/json': { schema: r.response ?? {} } } };
}

function security(r: DocRoute) {
  if (r.access === 'none') return [];
  const session = { sessionCookie: [], guildHeader: [] };
  return r.sessionOnly ? [session] : [{ bearerKey: r.scopes }, session];
}

function describe(r: DocRoute): string {
  const lines = [r.summary, '', `Access: ${accessText(r)}.`];
  if (r.module) lines.push(`Module: ${r.module} (404 when switched off).`);
  if (r.audit) lines.push(`Audit: ${r.audit}.`);
  if (r.topics.length) lines.push(`Update topics: ${r.topics.join(', ')}.`);
  return lines.join('\n');
}
