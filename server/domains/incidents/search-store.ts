import type { Db } from '../../store/db.ts';
import type { IncidentOut } from './schema.ts';
import { toIncident, unitsOf } from './store.ts';

export interface SheetFilter {
  state: 'open' | 'closed' | null;
  /** Lower-case search words; each must occur in the sheet's search text. */
  words: string[];
  /** A number the words may also name (the sheet with that number matches as well). */
  number: number | null;
  /** A callsign the sheet had on it at some point (any case). */
  unit: string | null;
  /** Local days of the guild's time zone (YYYY-MM-DD), both included. */
  from: string | null;
  to: string | null;
  /** Only sheets numbered below this one (the page cursor). */
  below: number | null;
  limit: number;
}

/** `%word%` for LIKE, with the word's own %, _ and \ taken literally. */
const containing = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Sheets of the guild matching the filter, newest first (by number), at most `limit`. Each word is
 * a `like '%word%'` on `search_text` (sql/0023: trigram GIN index with the guild id first), the
 * unit a `like '%|callsign|%'` on the same text; the number, days and cursor are ranges of the
 * primary key and of `incidents_by_created`. The statement's text differs per kind of filter
 * (fragments, not `$n is null or …`), so each kind gets its own plan.
 */
export async function searchIncidents(db: Db, guildId: string, f: SheetFilter): Promise<IncidentOut[]> {
  const none = db``;
  const zone = db`(select time_zone from guilds where id = ${guildId})`;
  // A word of 3 characters or more: LIKE, which the trigram index answers. Shorter ones have no
  // trigram, and LIKE would make the index read every entry; strpos filters the rows read instead.
  const words = f.words.reduce((acc, w) => (w.length >= 3
    ? db`${acc} and i.search_text like lower(${containing(w)}) escape '\\'`
    : db`${acc} and strpos(i.search_text, lower(${w})) > 0`), none);
  const text = f.number === null ? words
    : f.words.length ? db` and (i.number = ${f.number} or (true ${words}))` : db` and i.number = ${f.number}`;
  // The page's numbers first, then its rows: the units of only these sheets are read (a bitmap
  // scan's matches are sorted before the limit, and a select list would be computed for all of them).
  const rows = await db`
    with page as (
      select i.number from incidents i
      where i.guild_id = ${guildId}
        ${f.state ? db`and i.state = ${f.state}` : none}
        ${f.below !== null ? db`and i.number < ${f.below}` : none}
        ${f.from ? db`and i.created_at >= (${f.from}::date::timestamp at time zone ${zone})` : none}
        ${f.to ? db`and i.created_at < ((${f.to}::date + 1)::timestamp at time zone ${zone})` : none}
        ${f.unit ? db`and i.search_text like lower(${containing(`|${f.unit}|`)}) escape '\\'` : none}
        ${text}
      order by i.number desc limit ${f.limit}
    )
    select i.*, c.id::text as call_id_text, c.external_id as call_external_id, ${unitsOf(db)} as units
    from page p join incidents i on i.guild_id = ${guildId} and i.number = p.number
    left join calls c on c.guild_id = i.guild_id and c.id = i.call_id
    order by i.number desc`;
  return rows.map(toIncident);
}
