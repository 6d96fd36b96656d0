import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import type { Db } from '../../store/db.ts';
import { inGuildTx, type Actor, type Tx } from '../../store/tx.ts';
import { aaoLimits } from '../../../contract/aao.ts';
import * as store from './store.ts';

// Catalogue edits announce themselves on `units` as the notice `{op: 'aao'}` (like `statuses`):
// boards re-read the catalogue and open proposals. Every edit holds the catalogue lock.

export async function listUnitTypes(deps: Deps, guildId: string) {
  return { types: await store.unitTypes(deps.sql, guildId) };
}

export async function listKeywords(deps: Deps, guildId: string) {
  return { keywords: await store.keywords(deps.sql, guildId) };
}

/** Creates or changes a type; respelling its code (another case) renames it on its units too (units patches). */
export async function putUnitType(deps: Deps, guildId: string, input: { code: string; label?: string; position?: number }, actor: Actor) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await store.lockCatalogue(tx.sql, guildId);
    const { type, created, previousCode } = await store.putUnitType(tx.sql, guildId, { code: input.code, label: input.label ?? null, position: input.position ?? null });
    if (created && (await store.unitTypeCount(tx.sql, guildId)) > aaoLimits.types) {
      throw new AppError('CONFLICT', `a guild has at most ${aaoLimits.types} unit types`);
    }
    if (previousCode !== null && previousCode !== type.code) {
      for (const callsign of (await store.typeUse(tx.sql, guildId, type.code)).units) tx.emit('units', { op: 'patch', key: callsign, value: { type: type.code } });
    }
    tx.emit('units', { op: 'aao' });
    tx.audit('unit_types.set', actor, { code: type.code, label: type.label, position: type.position, ...(previousCode && previousCode !== type.code ? { previousCode } : {}) });
    return { ...type, units: (await store.typeUse(tx.sql, guildId, type.code)).units.length };
  });
}

/** Deletes a type nobody uses: 409 `unit_type_in_use` naming the units and keywords that do. */
export async function deleteUnitType(deps: Deps, guildId: string, code: string, actor: Actor) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await store.lockCatalogue(tx.sql, guildId);
    const use = await store.typeUse(tx.sql, guildId, code);
    if (use.code === null) throw new AppError('NOT_FOUND', `no unit type ${code}`);
    if (use.units.length || use.keywords.length) {
      const by = [use.units.length ? `units ${use.units.join(', ')}` : '', use.keywords.length ? `keywords ${use.keywords.join(', ')}` : ''].filter(Boolean).join(' and ');
      throw new AppError('CONFLICT', `unit type ${use.code} is in use by ${by}`, {
        reason: 'unit_type_in_use',
        params: { type: use.code, ...(use.units.length ? { units: use.units.join(', ') } : {}), ...(use.keywords.length ? { keywords: use.keywords.join(', ') } : {}) },
      });
    }
    await store.deleteUnitType(tx.sql, guildId, use.code);
    tx.emit('units', { op: 'aao' });
    tx.audit('unit_types.delete', actor, { code: use.code });
    return { deleted: true as const, code: use.code };
  });
}

/** The requirement rows in the catalogue's spelling; 400 `unknown_unit_type` naming the types it lacks. */
async function resolveRequirements(tx: Tx, rows: { type: string; count: number }[]) {
  const known = await store.resolveTypes(tx.sql, tx.guildId, rows.map((r) => r.type));
  const unknown = rows.filter((r) => !known.has(r.type)).map((r) => r.type);
  if (unknown.length) {
    throw new AppError('BAD_REQUEST', `unknown unit type ${unknown.join(', ')}; see GET /admin/unit-types`, { reason: 'unknown_unit_type', params: { types: unknown.join(', ') } });
  }
  return rows.map((r) => ({ type: known.get(r.type)!, count: r.count }));
}

const keywordTaken = (keyword: string) => new AppError('CONFLICT', `the keyword ${keyword} exists already (keywords are unique in any case)`, { reason: 'name_taken', params: { name: keyword } });

export async function createKeyword(deps: Deps, guildId: string, input: { keyword: string; priority?: number; requirements?: { type: string; count: number }[] }, actor: Actor) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await store.lockCatalogue(tx.sql, guildId);
    const rows = await resolveRequirements(tx, input.requirements ?? []);
    if ((await store.keywordCount(tx.sql, guildId)) >= aaoLimits.keywords) throw new AppError('CONFLICT', `a guild has at most ${aaoLimits.keywords} keywords`);
    const id = await store.insertKeyword(tx.sql, guildId, input.keyword, input.priority ?? 2);
    if (!id) throw keywordTaken(input.keyword);
    await store.replaceRequirements(tx.sql, guildId, id, rows);
    const saved = (await store.keywordById(tx.sql, guildId, id))!;
    tx.emit('units', { op: 'aao' });
    tx.audit('aao.keyword_create', actor, { id, keyword: saved.keyword, priority: saved.priority, requirements: saved.requirements });
    return saved;
  });
}

export async function updateKeyword(deps: Deps, guildId: string, input: { id: string; keyword?: string; priority?: number; requirements?: { type: string; count: number }[] }, actor: Actor) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await store.lockCatalogue(tx.sql, guildId);
    if (!(await store.keywordById(tx.sql, guildId, input.id))) throw new AppError('NOT_FOUND', `no keyword ${input.id}`);
    const rows = input.requirements && await resolveRequirements(tx, input.requirements);
    if (!(await store.updateKeyword(tx.sql, guildId, input.id, { keyword: input.keyword, priority: input.priority }))) throw keywordTaken(input.keyword ?? '');
    if (rows) await store.replaceRequirements(tx.sql, guildId, input.id, rows);
    const saved = (await store.keywordById(tx.sql, guildId, input.id))!;
    tx.emit('units', { op: 'aao' });
    tx.audit('aao.keyword_update', actor, { id: input.id, keyword: saved.keyword, priority: saved.priority, requirements: saved.requirements });
    return saved;
  });
}

export async function deleteKeyword(deps: Deps, guildId: string, id: string, actor: Actor) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await store.lockCatalogue(tx.sql, guildId);
    const keyword = await store.deleteKeyword(tx.sql, guildId, id);
    if (keyword === null) throw new AppError('NOT_FOUND', `no keyword ${id}`);
    tx.emit('units', { op: 'aao' });
    tx.audit('aao.keyword_delete', actor, { id, keyword });
    return { deleted: true as const, id, keyword };
  });
}

/**
 * A unit's type as the catalogue spells it (`code` in any case; null: none), share-locked until
 * commit so it cannot be deleted meanwhile; 400 `unknown_unit_type` when the catalogue lacks it.
 */
export async function unitTypeOf(db: Db, guildId: string, code: string | null): Promise<string | null> {
  if (code === null) return null;
  const known = (await store.resolveTypes(db, guildId, [code])).get(code);
  if (!known) throw new AppError('BAD_REQUEST', `unknown unit type ${code}; see GET /admin/unit-types`, { reason: 'unknown_unit_type', params: { types: code } });
  return known;
}
