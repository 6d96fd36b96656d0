import type { Deps } from '../../deps.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { searchIncidents } from './search-store.ts';

export interface ListQuery {
  state?: 'open' | 'closed';
  limit?: number;
  q?: string;
  unit?: string;
  from?: string;
  to?: string;
  cursor?: string;
}

/**
 * GET /incidents: one page of the guild's sheets, newest first. Keyset paging on the sheet number:
 * a page ends at a number and the next starts below it, so sheets written meanwhile (new ones have
 * higher numbers) neither repeat nor skip a sheet. One row more than the page is read to know
 * whether another page follows (nextCursor null: none).
 */
export async function listIncidents(deps: Deps, guildId: string, query: ListQuery) {
  const limit = query.limit ?? 100;
  // `|` marks callsigns in the search text (unit=), so it is not searched for.
  const words = (query.q ?? '').replace(/\|/g, ' ').trim().split(/\s+/).filter(Boolean);
  const asNumber = words.length === 1 ? /^#?([1-9][0-9]{0,9})$/.exec(words[0]) : null;
  const number = asNumber && Number(asNumber[1]) <= 2_147_483_647 ? Number(asNumber[1]) : null;
  const filter = {
    state: query.state ?? null,
    words: number !== null && words[0].startsWith('#') ? [] : words,
    number,
    unit: query.unit ?? null,
    from: query.from ?? null,
    to: query.to ?? null,
    below: query.cursor ? decodeCursor(query.cursor) : null,
    limit: limit + 1,
  };
  // Custom plans: prepared statements switch to a generic plan after five runs, and a generic plan
  // cannot tell a word on every tenth sheet (walk the primary key) from a rare one (ask the trigram
  // index): with the wrong one a common word took 160 ms instead of 5 at 100k sheets (bench).
  const rows = await deps.db.begin(async (sql) => {
    const custom = sql`set local plan_cache_mode = force_custom_plan`.execute();
    custom.catch(() => {}); // sent ahead of the search; if it failed, so does the search
    const found = await searchIncidents(sql, guildId, filter);
    await custom;
    return found;
  }, 'read only');
  const incidents = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? encodeCursor(incidents[incidents.length - 1].number) : null;
  return { count: incidents.length, incidents, nextCursor };
}
