import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The OpenAPI contract as a test oracle: every response an API test receives must have a
 * documented status, and its JSON body must validate against the documented schema.
 */
type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>; components: { schemas: Record<string, object> } };

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
let docPromise: Promise<Doc> | null = null;
const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
const templates = new Map<string, RegExp>();

function inline(schema: unknown, doc: Doc): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, doc));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (ref?.startsWith('#/components/schemas/')) return inline(doc.components.schemas[ref.slice(21)], doc);
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inline(v, doc)]));
}

/** A description of how `res` breaks the documented contract, or null when it keeps it (or is no documented route). */
export async function contractViolation(base: string, method: string, url: string, res: { status: number; body: unknown; headers: Headers }): Promise<string | null> {
  docPromise ??= fetch(`${base}/docs/openapi.json`).then((r) => r.json() as Promise<Doc>);
  const doc = await docPromise;
  const path = new URL(url, base).pathname;
  const m = method.toLowerCase();
  let template: string | undefined;
  for (const t of Object.keys(doc.paths)) {
    if (!doc.paths[t][m]) continue;
    let re = templates.get(t);
    if (!re) templates.set(t, (re = new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{\w+\\\}|\{\w+\}/g, '[^/]+')}$`)));
    if (re.test(path)) {
      template = t;
      break;
    }
  }
  if (!template) return null;
  const response = doc.paths[template][m].responses[String(res.status)];
  if (!response) return `${method} ${template} answered ${res.status}, which is not documented (${Object.keys(doc.paths[template][m].responses).join(', ')})`;
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return null;
  if (!(res.headers.get('content-type') ?? '').includes('application/json')) return `${method} ${template} ${res.status}: expected a JSON body`;
  const key = `${m} ${template} ${res.status}`;
  let validate = compiled.get(key);
  if (!validate) compiled.set(key, (validate = ajv.compile(inline(schema, doc) as object)));
  if (validate(res.body)) return null;
  return `${method} ${template} ${res.status}: body does not match the documented schema: ${ajv.errorsText(validate.errors)} — body ${JSON.stringify(res.body).slice(0, 300)}`;
}
