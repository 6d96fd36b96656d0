import type { HttpResponse } from '../game/http.ts';

/** What the server's answers say, read by the medic sync: the `error` text and how long to wait. */
export function errorOf(res: HttpResponse): string {
  try {
    const body = JSON.parse(res.body) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch { /* not JSON */ }
  return res.body.slice(0, 200) || 'no body';
}

/** Retry-After: seconds or an HTTP date; at most one hour. */
export function retryAfterMs(value: string | undefined): number {
  if (!value) return 0;
  const s = Number(value);
  const ms = Number.isFinite(s) ? s * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), 3_600_000) : 0;
}
