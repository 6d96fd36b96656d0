import { accessText, byTag, type DocRoute } from './model.ts';

/** A plain-text guide for language models: the service, auth, every route on one line, errors, limits. */
export function llmsText(model: DocRoute[], baseUrl: string): string {
  const out: string[] = [
    '# Dispatch Terminal API',
    '',
    '> Dispatch and staff backend for role-play emergency services (FiveM, Discord). One instance per Discord guild. JSON over HTTP under /api/v1, plus a tRPC WebSocket at /trpc for live boards.',
    '',
    '## Auth',
    '- API key: header `Authorization: Bearer stmp_…`. The key belongs to one guild; the guild comes from the key. Unscoped `stmp_…` keys act as the guild\'s admin except on /me routes; scoped `stmp_sc_…` keys pass only routes that name one of their scopes.',
    '- Session (web board): the cookie from a one-time login link plus header `x-guild-id: <guildId>`; writes that send a body send it as `Content-Type: application/json` (a write without any body needs no content type), and come from the same site.',
    '- Missing or bad credential: 401. Not allowed (scope, capability, admin, key on a session route): 403. Switched-off module: 404.',
    '',
    '## Errors',
    '- Every error body is {"error": "<message>", "reason": "<code>"} (plus "params" {name: string} for reasons with variable parts): branch on reason (e.g. slot_taken, not_clocked_in, validation, module_off; else the status\'s general one: not_found, conflict …), never on the English message. 400 invalid parameter or body (unknown fields are 400), 401, 403, 404 unknown route/record/module off, 409 conflict (already clocked in, stale version), 413 body over 1 MiB, 415 a body not sent as application/json, 429 too many (with Retry-After when rate limited), 503 database unavailable (with Retry-After; GET /api/v1/ready says when the node is ready again).',
    '',
    '## Limits',
    '- JSON bodies at most 1 MiB; tRPC batches at most 10 calls; 200 open game calls per guild; badges 1, "1" and "01" are one badge, answers use two digits.',
    '',
    '## Routes (method path — access — summary)',
  ];
  for (const [tag, routes] of byTag(model)) {
    out.push('', `### ${tag}`);
    for (const r of routes) {
      const extra = [r.audit ? `audit ${r.audit}` : '', r.topics.length ? `topics ${r.topics.join(',')}` : ''].filter(Boolean).join('; ');
      out.push(`- ${r.method} ${r.fullPath} — ${accessText(r)} — ${r.summary}${extra ? ` (${extra})` : ''}`);
    }
  }
  out.push(
    '',
    '## Live updates',
    '- WebSocket `/trpc` speaks tRPC v11 (superjson). Subscribe `live.watch({topics})` for a snapshot then deltas, each tracked "<epoch>.<seq>"; resume with lastEventId. Each topic needs what its REST read needs (403 naming it otherwise; 404 when its module is off); `{kind:"dropped"}` frames say which topics a rights change took away, `{kind:"status", degraded}` frames that the database is unreachable or back. At most 16 subscriptions per socket, 64 per key or session. `me.alarm.watch()` gives {onDuty, alarms} on change.',
    '',
    '## Other formats',
    `- HTML reference: ${baseUrl}/docs`,
    `- OpenAPI 3.1: ${baseUrl}/docs/openapi.json`,
    `- Postman collection v2.1: ${baseUrl}/docs/collection.json`,
    '',
  );
  return out.join('\n');
}
