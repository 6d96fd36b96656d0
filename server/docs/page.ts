import { accessText, byTag, type DocRoute, type JsonSchema } from './model.ts';
import { exampleFor } from './examples.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const anchor = (r: DocRoute) => `${r.method}-${r.path}`.replace(/[^A-Za-z0-9]+/g, '-');

/** The human reference: one self-contained page (no external assets), readable without JavaScript. */
export function referencePage(model: DocRoute[], baseUrl: string): string {
  const groups = byTag(model);
  const nav = groups.map(([tag, routes]) => `<li><a href="#tag-${esc(tag.replace(/\W+/g, '-'))}">${esc(tag)}</a> <small>(${routes.length})</small></li>`).join('');
  const sections = groups.map(([tag, routes]) => `
<section id="tag-${esc(tag.replace(/\W+/g, '-'))}"><h2>${esc(tag)}</h2>
${routes.map((r) => route(r, baseUrl)).join('\n')}
</section>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dispatch Terminal API reference</title>
<style>
:root{color-scheme:light dark;font-family:system-ui,sans-serif;--b:#8884}
body{margin:0;display:grid;grid-template-columns:16rem 1fr}
nav{position:sticky;top:0;height:100vh;overflow:auto;border-right:1px solid var(--b);padding:1rem}
nav ul{list-style:none;padding:0}main{padding:1rem 2rem;max-width:70rem}
article{border:1px solid var(--b);border-radius:8px;padding:.8rem 1rem;margin:1rem 0}
h3{margin:.2rem 0;font-family:ui-monospace,monospace;font-size:1rem}
.m{display:inline-block;min-width:4rem;font-weight:700}.GET{color:#1e7e34}.POST{color:#0b5ed7}.PUT,.PATCH{color:#b36b00}.DELETE{color:#c0392b}
pre{background:#8881;padding:.6rem;border-radius:6px;overflow:auto;font-size:.85rem}
table{border-collapse:collapse}td,th{border:1px solid var(--b);padding:.2rem .5rem;text-align:left;vertical-align:top}
details summary{cursor:pointer}
</style></head><body>
<nav><strong>Dispatch Terminal</strong><ul>${nav}</ul>
<p><a href="/docs/openapi.json">OpenAPI 3.1</a><br><a href="/docs/collection.json">Postman collection</a><br><a href="/docs/llms.txt">llms.txt</a></p></nav>
<main>
<h1>Dispatch Terminal API</h1>
<p>Base URL <code>${esc(baseUrl)}/api/v1</code>. ${model.length} routes.</p>
<h2>Authentication</h2>
<ul>
<li><b>API key</b>: <code>Authorization: Bearer stmp_…</code>. A key belongs to one guild. Unscoped keys (<code>stmp_…</code>) act as the guild's admin except on <code>/me</code> routes; scoped keys (<code>stmp_sc_…</code>) pass only routes that name one of their scopes.</li>
<li><b>Session</b> (web board): the HttpOnly cookie from a one-time login link plus <code>x-guild-id: &lt;guildId&gt;</code>. Writes that send a body send it as <code>Content-Type: application/json</code> (a write without any body needs no content type) and must come from the same site.</li>
</ul>
<h2>Errors</h2>
<p>Every error body is <code>{"error": "…", "reason": "…"}</code>: <code>error</code> for people, <code>reason</code> a stable code for programs to branch and translate on (<code>slot_taken</code>, <code>not_clocked_in</code>, <code>validation</code>, else the status's general one such as <code>not_found</code>), with the message's variable parts in <code>params</code> where it has some. 400 invalid parameter or body (unknown fields included) · 401 missing or invalid key or session · 403 not allowed · 404 unknown route, record, or switched-off module · 409 conflict · 413 body over 1 MiB · 415 a body not sent as <code>application/json</code> · 429 too many (rate limits send <code>Retry-After</code>) · 503 database unavailable (with <code>Retry-After</code>; <code>GET /api/v1/ready</code> is 503 meanwhile).</p>
${sections}
</main></body></html>`;
}

function route(r: DocRoute, baseUrl: string): string {
  const rows = [
    ['Access', esc(accessText(r))],
    r.module ? ['Module', `${esc(r.module)} (404 when switched off)`] : null,
    r.audit ? ['Audit', `<code>${esc(r.audit)}</code>`] : null,
    r.topics.length ? ['Update topics', r.topics.map((t) => `<code>${esc(t)}</code>`).join(', ')] : null,
  ].filter(Boolean) as string[][];
  const params = r.params.length
    ? `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>schema</th></tr>${r.params.map((p) => `<tr><td><code>${esc(p.name)}</code>${p.required ? ' *' : ''}</td><td>${p.in}</td><td><code>${esc(JSON.stringify(p.schema))}</code></td></tr>`).join('')}</table>`
    : '';
  return `<article id="${anchor(r)}">
<h3><span class="m ${r.method}">${r.method}</span> ${esc(r.fullPath)}</h3>
<p>${esc(r.summary)}</p>
<table>${rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('')}</table>
${params}
${r.body ? `<details><summary>Request body (${esc(r.bodyType)})</summary><pre>${esc(pretty(r.body))}</pre></details>` : ''}
<details><summary>Response (${esc(r.produces)})</summary><pre>${esc(r.response ? pretty(r.response) : r.produces)}</pre></details>
<h4>Status codes</h4><table>${r.statuses.map((s) => `<tr><td>${s.status}</td><td>${esc(s.meaning)}</td></tr>`).join('')}</table>
<h4>Example</h4><pre>${esc(curl(r, baseUrl))}</pre>
</article>`;
}

const pretty = (s: JsonSchema) => JSON.stringify(s, null, 2);

function curl(r: DocRoute, baseUrl: string): string {
  const path = r.fullPath.replace(/\{(\w+)\}/g, (_, name) => {
    const p = r.params.find((x) => x.name === name);
    return encodeURIComponent(String(exampleFor(p?.schema, name)));
  });
  const query = r.params.filter((p) => p.in === 'query' && p.required).map((p) => `${p.name}=${encodeURIComponent(String(exampleFor(p.schema, p.name)))}`).join('&');
  const parts = [`curl -X ${r.method} '${baseUrl}${path}${query ? `?${query}` : ''}'`];
  if (r.access !== 'none') parts.push(r.sessionOnly ? `-H 'cookie: dt_session=…' -H 'x-guild-id: …'` : `-H 'Authorization: Bearer stmp_…'`);
  if (r.body && r.bodyType === 'multipart/form-data') parts.push(...Object.keys(r.body.properties).map((k) => `-F '${k}=@logo.png'`));
  else if (r.body) parts.push(`-H 'content-type: application/json' -d '${JSON.stringify(exampleFor(r.body))}'`);
  return parts.join(' \\\n  ');
}
