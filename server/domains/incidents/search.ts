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
  const rows = await searchIncidents(deps.sql, guildId, {
    state: query.state ?? null,
    words: number !== null && words[0].startsWith('#') ? [] : words,
    number,
    unit: query.unit ?? null,
    from: query.from ?? null,
    to: query.to ?? null,
    below: query.cursor ? decodeCursor(query.cursor) : null,
    limit: limit + 1,
  });
  const incidents = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? encodeCursor(incidents[incidents.length - 1].number) : null;
  return { count: incidents.length, incidents, nextCursor };
}
