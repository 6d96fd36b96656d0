import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import type { Db } from '../../store/db.ts';
import { matchKeyword } from '../../../contract/aao.ts';
import { buildProposal, type Candidate } from './rank.ts';
import type { ProposalOut } from './schema.ts';
import * as store from './store.ts';

async function sheetOf(db: Db, guildId: string, number: number) {
  const [row] = await db`select keyword, location, state from incidents where guild_id = ${guildId} and number = ${number}`;
  return row ? { keyword: row.keyword as string, location: row.location as unknown, state: row.state as 'open' | 'closed' } : null;
}

/**
 * The guild's units of these types with what the proposal needs: on sheet `number` already; in an
 * available status and on no other open sheet. Units have no stored position yet (issue 31 adds
 * one): `x`/`y` stay null here until then, and the order falls back to station order.
 */
async function candidates(db: Db, guildId: string, number: number, types: string[]): Promise<Candidate[]> {
  const rows = await db`
    select u.callsign, u.label, u.type, u.org_unit, u.status, coalesce(s.available, false) as status_available,
      (select count(*) from unit_members m where m.guild_id = u.guild_id and m.unit_id = u.id)::int as crew,
      exists (select 1 from incident_units iu where iu.guild_id = u.guild_id and iu.unit_id = u.id and iu.number = ${number}) as on_sheet,
      exists (select 1 from incident_units iu join incidents i on i.guild_id = iu.guild_id and i.number = iu.number and i.state = 'open'
        where iu.guild_id = u.guild_id and iu.unit_id = u.id and iu.number <> ${number}) as elsewhere,
      null::float8 as x, null::float8 as y
    from units u left join unit_statuses s on s.guild_id = u.guild_id and s.code = u.status
    where u.guild_id = ${guildId} and u.type = any(${types}::text[])`;
  return rows.map((r) => ({
    callsign: r.callsign as string, label: r.label as string, type: r.type as string, orgUnit: r.org_unit as string, status: r.status as string,
    crew: r.crew as number, onSheet: r.on_sheet as boolean, available: (r.status_available as boolean) && !(r.elsewhere as boolean),
    position: r.x === null || r.y === null ? null : { x: r.x as number, y: r.y as number },
  }));
}

/** The sheet's game coordinates, when its location has them. */
function pointOf(location: unknown): { x: number; y: number } | null {
  if (typeof location !== 'object' || location === null) return null;
  const { x, y } = location as { x?: unknown; y?: unknown };
  return typeof x === 'number' && typeof y === 'number' ? { x, y } : null;
}

/**
 * The AAO proposal of sheet `number` (GET /incidents/{number}/proposal): the catalogue keyword its
 * keyword matches, and per required type the units on the sheet, the best available ones to alarm
 * and what is missing. A read at one moment: alarming checks everything again.
 */
export async function proposalFor(deps: Deps, guildId: string, number: number): Promise<ProposalOut> {
  const sheet = await sheetOf(deps.sql, guildId, number);
  if (!sheet) throw new AppError('NOT_FOUND', `no incident sheet ${number} in this guild`);
  if (sheet.state === 'closed') throw new AppError('CONFLICT', `incident sheet ${number} is closed`, { reason: 'incident_closed', params: { sheet: String(number) } });
  const matched = matchKeyword(sheet.keyword, await store.keywords(deps.sql, guildId));
  const none = { number, keyword: sheet.keyword, matched: null, priority: null, requirements: [], units: [], missing: [] };
  if (!matched) return none;
  const labels = new Map((await store.unitTypes(deps.sql, guildId)).map((t) => [t.code, t.label]));
  const requirements = matched.requirements.map((r) => ({ ...r, label: labels.get(r.type) ?? '' }));
  const units = await candidates(deps.sql, guildId, number, requirements.map((r) => r.type));
  return {
    number, keyword: sheet.keyword,
    matched: { id: matched.id, keyword: matched.keyword, priority: matched.priority }, priority: matched.priority,
    ...buildProposal(requirements, units, pointOf(sheet.location)),
  };
}

/** The default priority of a new sheet with `keyword`: its catalogue keyword's, or null when none matches. */
export async function keywordPriority(db: Db, guildId: string, keyword: string): Promise<number | null> {
  return matchKeyword(keyword, await store.keywords(db, guildId))?.priority ?? null;
}
