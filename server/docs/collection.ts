import { accessText, byTag, type DocRoute } from './model.ts';
import { exampleFor } from './examples.ts';

const TEST_SCRIPT = [
  "pm.test('no server error', function () { pm.expect(pm.response.code).to.be.below(500); });",
  'if (pm.response.code >= 400) {',
  "  pm.test('error body is {error, reason, params?}', function () { const b = pm.response.json(); pm.expect(b.error).to.be.a('string'); pm.expect(b.reason).to.be.a('string'); pm.expect(Object.keys(b).filter(function (k) { return k !== 'params'; })).to.eql(['error', 'reason']); });",
  '}',
];

/** A Postman Collection v2.1 of every route, grouped by tag, with variables and valid example bodies. */
export function postmanCollection(model: DocRoute[], baseUrl: string): Record<string, unknown> {
  const pathVars = new Map<string, unknown>();
  const folders = byTag(model).map(([tag, routes]) => ({
    name: tag,
    item: routes.map((r) => {
      const segments = r.fullPath.split('/').filter(Boolean).map((s) => s.replace(/^\{(\w+)\}$/, ':$1'));
      const variable = r.params.filter((p) => p.in === 'path').map((p) => {
        const value = exampleFor(p.schema, p.name);
        if (!pathVars.has(p.name)) pathVars.set(p.name, value);
        return { key: p.name, value: `{{${p.name}}}`, description: p.description ?? '' };
      });
      const query = r.params.filter((p) => p.in === 'query' && p.required).map((p) => ({ key: p.name, value: String(exampleFor(p.schema, p.name)) }));
      const header = [{ key: 'x-guild-id', value: '{{guildId}}', description: 'Only used with a session cookie.', disabled: !r.sessionOnly }];
      const request: Record<string, unknown> = {
        method: r.method,
        description: `${r.summary}\n\nAccess: ${accessText(r)}.${r.audit ? ` Audit: ${r.audit}.` : ''}${r.topics.length ? ` Topics: ${r.topics.join(', ')}.` : ''}`,
        header,
        url: {
          raw: `{{baseUrl}}${r.fullPath.replace(/\{(\w+)\}/g, ':$1')}${query.length ? `?${query.map((q) => `${q.key}=${q.value}`).join('&')}` : ''}`,
          host: ['{{baseUrl}}'],
          path: segments,
          ...(variable.length ? { variable } : {}),
          ...(query.length ? { query } : {}),
        },
      };
      if (r.access === 'none') request.auth = { type: 'noauth' };
      if (r.body && r.bodyType === 'multipart/form-data') {
        request.body = { mode: 'formdata', formdata: Object.keys(r.body.properties).map((key) => ({ key, type: 'file', src: '' })) };
      } else if (r.body) {
        header.push({ key: 'Content-Type', value: 'application/json', description: '', disabled: false });
        request.body = { mode: 'raw', raw: JSON.stringify(exampleFor(r.body), null, 2), options: { raw: { language: 'json' } } };
      }
      return { name: `${r.method} ${r.path}`, request, event: [{ listen: 'test', script: { type: 'text/javascript', exec: TEST_SCRIPT } }] };
    }),
  }));
  return {
    info: {
      name: 'Dispatch Terminal API',
      description: 'Every route of the Dispatch Terminal REST API. Set the variables baseUrl, apiKey and guildId; path parameters have their own variables.',
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] },
    variable: [
      { key: 'baseUrl', value: baseUrl },
      { key: 'apiKey', value: 'stmp_…' },
      { key: 'guildId', value: '' },
      ...[...pathVars].map(([key, value]) => ({ key, value: String(value) })),
    ],
    item: folders,
  };
}
