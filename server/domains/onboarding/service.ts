import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import type { Tx } from '../../store/tx.ts';
import { effectiveModules } from '../../../contract/modules.ts';
import { beyondCaller, type Caller } from '../personnel/caller.ts';
import { insertRank } from '../ranks/store.ts';
import { lockCatalogue as lockAao, resolveTypes } from '../aao/store.ts';
import * as ops from '../units/ops.ts';
import * as statusStore from '../units/status-store.ts';
import { insertUnit } from '../units/store.ts';
import { guildWrite } from '../units/write.ts';
import { areas, areaTitles, emptyMeans, planOf, templateIds, templates, type Area, type TemplateId } from './areas.ts';
import * as store from './store.ts';
import type { Template } from './templates/types.ts';

/** The path's guild must be the caller's: any other id, existing or not, is "unknown" — nothing about other guilds leaks. */
function ownGuild(callerGuild: string, pathGuild: string) {
  if (pathGuild !== callerGuild) throw new AppError('NOT_FOUND', `unknown guild ${pathGuild}: you can only set up your own guild (${callerGuild})`);
}

export async function seedable(deps: Deps, callerGuild: string, pathGuild: string) {
  ownGuild(callerGuild, pathGuild);
  const empty = await store.emptyAreas(deps.sql, callerGuild);
  if (!empty) throw new AppError('NOT_FOUND', `unknown guild ${pathGuild}`);
  return {
    guildId: callerGuild,
    templates: templateIds.map((id) => ({ id, title: templates[id].title })),
    areas: areas.map((area) => ({
      area, title: areaTitles[area], empty: empty[area], emptyMeans: emptyMeans[area],
      templates: Object.fromEntries(templateIds.map((id) => [id, planOf(templates[id], area)])),
    })),
  };
}

export type AreaResult = { created: number; items: string[] } | { skipped: 'not empty' | 'the status catalogue is empty' };

/**
 * Fills the requested areas that are empty, from one template, in one transaction. Seeds of one
 * guild are serialised (store.lockOnboarding) and every area is re-checked under that lock, so two
 * concurrent seeds fill each area once and a repeated seed changes nothing (and writes no event
 * and no audit row). The caller must hold every capability a seeded rank grants (the rule of POST
 * /admin/ranks).
 */
export async function seed(deps: Deps, callerGuild: string, pathGuild: string, templateId: TemplateId, wanted: readonly Area[], caller: Caller) {
  ownGuild(callerGuild, pathGuild);
  const template = templates[templateId];
  const requested = areas.filter((a) => wanted.includes(a));
  const outcome = await guildWrite(deps, callerGuild, async (tx) => {
    await store.lockOnboarding(tx.sql, callerGuild);
    if (requested.includes('statuses') || requested.includes('units')) await statusStore.lockCatalogue(tx.sql, callerGuild, 'update');
    if (requested.includes('aao') || requested.includes('units')) await lockAao(tx.sql, callerGuild);
    const empty = await store.emptyAreas(tx.sql, callerGuild);
    if (!empty) throw new AppError('NOT_FOUND', `unknown guild ${pathGuild}`);
    const results: Partial<Record<Area, AreaResult>> = {};
    for (const area of requested) {
      results[area] = empty[area] ? await fill(tx, template, area, caller) : { skipped: 'not empty' };
    }
    const created = requested.filter((a) => 'created' in results[a]!);
    if (created.length) {
      tx.emit('settings', { op: 'onboarding', template: template.id, areas: created });
      tx.emit('access', { op: 'onboarding', areas: created });
      tx.audit('onboarding.seed', caller.actor, {
        template: template.id,
        areas: Object.fromEntries(created.map((a) => [a, (results[a] as { created: number }).created])),
      });
    }
    return { results, created };
  });
  // Ranks and modules decide access: every node drops its cached view of the guild.
  if (outcome.created.includes('ranks') || outcome.created.includes('modules')) deps.guilds.changed(callerGuild);
  return { guildId: callerGuild, template: template.id, areas: outcome.results };
}

async function fill(tx: Tx, template: Template, area: Area, caller: Caller): Promise<AreaResult> {
  const guildId = tx.guildId;
  switch (area) {
    case 'ranks': {
      const missing = beyondCaller(caller, template.ranks.flatMap((r) => r.capabilities));
      if (missing.length) throw new AppError('FORBIDDEN', `the template's ranks carry capabilities you do not hold (${[...new Set(missing)].join(', ')}); only guild admins may seed them`);
      const names: string[] = [];
      for (const r of template.ranks) {
        if (!(await insertRank(tx.sql, guildId, { ...r, capabilities: [...r.capabilities] }))) continue;
        names.push(r.name);
        tx.emit('access', { op: 'rank', rankId: r.id, change: 'created' });
      }
      return { created: names.length, items: names };
    }
    case 'statuses': {
      const n = await store.insertStatuses(tx.sql, guildId, template.statuses);
      tx.emit('units', { op: 'statuses' });
      return { created: n, items: template.statuses.map((s) => `${s.code} ${s.label}`) };
    }
    case 'aao': {
      // Types, then keywords; the guild's untyped units with a template callsign get their type.
      const types = await store.insertUnitTypes(tx.sql, guildId, template.unitTypes);
      const keywords = await store.insertKeywords(tx.sql, guildId, template.keywords);
      for (const u of await store.typeTemplateUnits(tx.sql, guildId, template.units)) tx.emit('units', { op: 'patch', key: u.callsign, value: { type: u.type } });
      tx.emit('units', { op: 'aao' });
      return { created: types.length + keywords.length, items: [...types, ...keywords] };
    }
    case 'units': {
      const initial = await statusStore.initialStatus(tx.sql, guildId);
      if (!initial) return { skipped: 'the status catalogue is empty' };
      // A unit gets the template's type where the guild's catalogue has it (seeded just before, or its own).
      const known = await resolveTypes(tx.sql, guildId, template.units.map((u) => u.type));
      const callsigns: string[] = [];
      for (const u of template.units) {
        const unit = await insertUnit(tx.sql, guildId, { ...u, status: initial.code, type: known.get(u.type) ?? null });
        if (!unit) continue;
        ops.emitUnitAdded(tx, unit, initial.alarm); // live boards get the unit, the overview its count
        callsigns.push(unit.callsign);
      }
      return { created: callsigns.length, items: callsigns };
    }
    case 'letterheads': {
      const names = await store.insertLetterheads(tx.sql, guildId, template.letterheads);
      tx.emit('letterheads', { op: 'created', names });
      return { created: names.length, items: names };
    }
    case 'modules': {
      const stored = await store.setModulesIfUnchanged(tx.sql, guildId, template.modules);
      if (!stored) return { skipped: 'not empty' };
      const effective = effectiveModules(stored);
      tx.emit('settings', { op: 'set', key: 'modules', value: effective });
      tx.emit('access', { op: 'modules', modules: effective });
      return { created: Object.keys(template.modules).length, items: planOf(template, 'modules').items };
    }
    case 'clock': {
      const settings = await store.setClockIfUnset(tx.sql, guildId, template.clock);
      if (!settings) return { skipped: 'not empty' };
      tx.emit('settings', { op: 'set', key: 'clock', value: settings });
      return { created: 3, items: planOf(template, 'clock').items };
    }
  }
}
