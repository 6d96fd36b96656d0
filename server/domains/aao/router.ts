import { guildProcedure, router } from '../../trpc/init.ts';
import { NumberParam } from '../incidents/schema.ts';
import { proposalFor } from './proposal.ts';
import * as s from './schema.ts';
import * as svc from './service.ts';

// Catalogue edits: the `aao` notice on units (boards re-read the catalogue and their proposals).
const settings = { access: 'admin' as const, capability: 'settings.manage' as const, topics: ['units'] as ['units'] };

/** Alarm- und Ausrückeordnung: unit types, the keyword catalogue, and a sheet's proposal (README.md). */
export const aaoRouter = router({
  unitTypes: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/admin/unit-types' }, tag: 'Administration',
      summary: 'The guild\'s unit types (RTW, NEF, HLF …) in display order, each with how many units have it.',
      access: 'admin', capability: 'timeclock.own.use', module: 'dispatch',
    })
    .output(s.UnitTypeList)
    .query(({ ctx }) => svc.listUnitTypes(ctx.deps, ctx.guildId)),

  putUnitType: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/admin/unit-types/{code}' }, tag: 'Administration',
      summary: 'Create or change a unit type (code any case: the same type, respelled; its units follow).',
      ...settings, module: 'dispatch', audit: 'unit_types.set',
      errors: { 400: 'Invalid code, label or position.', 409: 'The catalogue already holds 50 types.' },
    })
    .input(s.PutUnitType).output(s.UnitType)
    .mutation(({ ctx, input }) => svc.putUnitType(ctx.deps, ctx.guildId, input, ctx.actor)),

  deleteUnitType: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/admin/unit-types/{code}' }, tag: 'Administration',
      summary: 'Delete a unit type; refused while a unit has it or a keyword asks for it (unit_type_in_use).',
      ...settings, module: 'dispatch', audit: 'unit_types.delete',
      errors: { 404: 'No such unit type.', 409: 'A unit has the type, or a keyword asks for it (unit_type_in_use).' },
    })
    .input(s.UnitTypeParam).output(s.UnitTypeDeleted)
    .mutation(({ ctx, input }) => svc.deleteUnitType(ctx.deps, ctx.guildId, input.code, ctx.actor)),

  keywords: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/admin/keywords' }, tag: 'Administration',
      summary: 'The AAO keyword catalogue: each Einsatzstichwort with its default priority and the unit types (and counts) it sends.',
      access: 'admin', capability: 'timeclock.own.use', module: 'incidents',
    })
    .output(s.KeywordList)
    .query(({ ctx }) => svc.listKeywords(ctx.deps, ctx.guildId)),

  createKeyword: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/admin/keywords' }, tag: 'Administration',
      summary: 'Add a keyword: its text (unique in any case), default priority and requirements [{type, count}].',
      ...settings, module: 'incidents', audit: 'aao.keyword_create',
      errors: { 400: 'Invalid body, or a type not in GET /admin/unit-types (unknown_unit_type).', 409: 'The keyword exists (name_taken), or the catalogue holds 300 keywords.' },
    })
    .input(s.CreateKeyword).output(s.Keyword)
    .mutation(({ ctx, input }) => svc.createKeyword(ctx.deps, ctx.guildId, input, ctx.actor)),

  updateKeyword: guildProcedure
    .meta({
      rest: { method: 'PATCH', path: '/admin/keywords/{id}' }, tag: 'Administration',
      summary: 'Change a keyword\'s text, priority or requirements (requirements replace every row).',
      ...settings, module: 'incidents', audit: 'aao.keyword_update',
      errors: { 400: 'Invalid body, or a type not in GET /admin/unit-types (unknown_unit_type).', 404: 'No such keyword.', 409: 'Another keyword has this text (name_taken).' },
    })
    .input(s.PatchKeyword).output(s.Keyword)
    .mutation(({ ctx, input }) => svc.updateKeyword(ctx.deps, ctx.guildId, input, ctx.actor)),

  deleteKeyword: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/admin/keywords/{id}' }, tag: 'Administration',
      summary: 'Delete a keyword.',
      ...settings, module: 'incidents', audit: 'aao.keyword_delete',
      errors: { 404: 'No such keyword.' },
    })
    .input(s.KeywordParam).output(s.KeywordDeleted)
    .mutation(({ ctx, input }) => svc.deleteKeyword(ctx.deps, ctx.guildId, input.id, ctx.actor)),

  proposal: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/incidents/{number}/proposal' }, tag: 'Einsatzblatt',
      summary: 'The AAO proposal for the sheet: the catalogue keyword its keyword matches, and per required type the units on the sheet, the available units to alarm (statuses with available: true, on no other open sheet; occupied first, nearest first when positions are known, else station order) and what is missing. Alarm it with POST /incidents/{number}/alarm.',
      access: 'view', capability: 'dispatch.view', module: 'incidents',
      errors: { 404: 'No incident sheet with this number in this guild.', 409: 'The sheet is closed (incident_closed).' },
    })
    .input(NumberParam).output(s.Proposal)
    .query(({ ctx, input }) => proposalFor(ctx.deps, ctx.guildId, input.number)),
});
