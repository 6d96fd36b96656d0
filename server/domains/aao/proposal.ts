import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import type { Db } from '../../store/db.ts';
import { matchKeyword } from '../../../contract/aao.ts';
import { buildProposal } from './rank.ts';
import type { ProposalOut } from './schema.ts';
import * as store from './store.ts';
import { freshPositions } from '../positions/service.ts';

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
  const sheet = await store.sheetOf(deps.sql, guildId, number);
  if (!sheet) throw new AppError('NOT_FOUND', `no incident sheet ${number} in this guild`);
  if (sheet.state === 'closed') throw new AppError('CONFLICT', `incident sheet ${number} is closed`, { reason: 'incident_closed', params: { sheet: String(number) } });
  const matched = matchKeyword(sheet.keyword, await store.keywords(deps.sql, guildId));
  const none = { number, keyword: sheet.keyword, matched: null, priority: null, requirements: [], units: [], missing: [] };
  if (!matched) return none;
  const labels = new Map((await store.unitTypes(deps.sql, guildId)).map((t) => [t.code, t.label]));
  const requirements = matched.requirements.map((r) => ({ ...r, label: labels.get(r.type) ?? '' }));
  const [stored, positions] = await Promise.all([store.candidates(deps.sql, guildId, number, requirements.map((r) => r.type)), freshPositions(deps, guildId)]);
  const units = stored.map((u) => ({ ...u, position: positions.get(u.callsign) ?? null }));
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
