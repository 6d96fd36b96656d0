import { guildProcedure, router } from '../../trpc/init.ts';
import { requireSession } from '../../trpc/session.ts';
import { actorName } from '../calls/router.ts';
import * as s from './schema.ts';
import { createUnit, deleteUnit, joinUnit, leaveUnit, listCrewUnits, listUnits, updateUnit } from './service.ts';
import { deleteStatus, listStatuses, putStatus, setOwnUnitStatus, setUnitStatus, setUnitStatusByBadge } from './status-service.ts';

const gameStatus = ['units:unit.ingame_status'] as const;
const statusTopics = ['units', 'alarm', 'overview', 'einsatzEntries'] as const;

export const unitsRouter = router({
  statuses: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/admin/statuses' }, tag: 'Administration',
      summary: 'The guild\'s unit status catalogue (German FMS codes unless edited), each with its alarm flag, in display order.',
      access: 'admin', capability: 'timeclock.own.use', scopes: [...gameStatus], module: 'dispatch',
    })
    .output(s.StatusList)
    .query(({ ctx }) => listStatuses(ctx.deps, ctx.guildId)),

  putStatus: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/admin/statuses/{code}' }, tag: 'Administration',
      summary: 'Create or replace a unit status. Flipping its alarm flag moves every unit in it into or out of the alarm list at once.',
      access: 'admin', capability: 'settings.manage', module: 'dispatch', audit: 'statuses.set', topics: ['units', 'alarm', 'overview'],
      errors: { 409: 'The catalogue already holds 50 statuses.' },
    })
    .input(s.PutStatus).output(s.Status)
    .mutation(({ ctx, input }) => putStatus(ctx.deps, ctx.guildId, input, ctx.actor)),

  deleteStatus: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/admin/statuses/{code}' }, tag: 'Administration',
      summary: 'Delete a unit status; refused while a unit is in it, and for the last one.',
      access: 'admin', capability: 'settings.manage', module: 'dispatch', audit: 'statuses.delete', topics: ['units'],
      errors: { 404: 'No such status.', 409: 'A unit is in this status, or it is the last one.' },
    })
    .input(s.StatusCodeParam).output(s.StatusDeleted)
    .mutation(({ ctx, input }) => deleteStatus(ctx.deps, ctx.guildId, input.code, ctx.actor)),

  list: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/units' }, tag: 'Leitstelle',
      summary: 'All units with status (label, alarm flag, since), members and last known position. Keys with units:unit.ingame_position read it too: a game resource learns which players crew which unit, to send their positions.',
      access: 'view', capability: 'dispatch.view', scopes: ['units:unit.ingame_position'], module: 'dispatch',
    })
    .output(s.UnitList)
    .query(({ ctx }) => listUnits(ctx.deps, ctx.guildId)),

  crewList: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/me/units' }, tag: 'Allgemein',
      summary: 'The units you may occupy, to choose yours from: callsign, label, station, status and how many occupy it (no names).',
      access: 'member', capability: 'timeclock.own.use', sessionOnly: true, module: 'dispatch',
    })
    .output(s.CrewUnitList)
    .query(({ ctx }) => listCrewUnits(ctx.deps, ctx.guildId)),

  create: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/units' }, tag: 'Leitstelle',
      summary: 'Create a unit, optionally with a type (a code of GET /admin/unit-types). It starts in status 2 (Einsatzbereit auf Wache), or the catalogue\'s first status when 2 is gone.',
      access: 'admin', capability: 'units.manage', module: 'dispatch', audit: 'unit.create', topics: ['units', 'overview', 'alarm'],
      errors: { 400: 'Invalid body, or a type not in GET /admin/unit-types (unknown_unit_type).', 409: 'The callsign is taken (callsigns are unique regardless of case).' },
    })
    .input(s.CreateUnit).output(s.Unit)
    .mutation(({ ctx, input }) => createUnit(ctx.deps, ctx.guildId, input, ctx.actor)),

  update: guildProcedure
    .meta({
      rest: { method: 'PATCH', path: '/units/{callsign}' }, tag: 'Leitstelle',
      summary: 'Change a unit\'s label, organisation unit or type (a code of GET /admin/unit-types; null clears it), or rename it (newCallsign; only while nobody occupies it).',
      access: 'admin', capability: 'units.manage', module: 'dispatch', audit: 'unit.update', topics: ['units', 'alarm'],
      errors: { 400: 'Invalid body, or a type not in GET /admin/unit-types (unknown_unit_type).', 404: 'No such unit.', 409: 'The new callsign is taken, or the unit is occupied (rename).' },
    })
    .input(s.PatchUnit).output(s.Unit)
    .mutation(({ ctx, input }) => updateUnit(ctx.deps, ctx.guildId, input, ctx.actor)),

  delete: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/units/{callsign}' }, tag: 'Leitstelle',
      summary: 'Delete a unit; refused while somebody occupies it.',
      access: 'admin', capability: 'units.manage', module: 'dispatch', audit: 'unit.delete', topics: ['units', 'overview', 'alarm'],
      errors: { 404: 'No such unit.', 409: 'The unit is occupied or still referenced.' },
    })
    .input(s.CallsignParam).output(s.UnitDeleted)
    .mutation(({ ctx, input }) => deleteUnit(ctx.deps, ctx.guildId, input.callsign, ctx.actor)),

  join: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/me/unit' }, tag: 'Allgemein',
      summary: 'Occupy a unit. You must be clocked in; you are in one unit at a time, so this moves you out of your current one.',
      access: 'member', capability: 'timeclock.own.use', sessionOnly: true, module: 'dispatch', audit: 'unit.join', topics: ['units'],
      errors: { 404: 'No such unit, or you have no personnel entry.', 409: 'You are not clocked in.' },
    })
    .input(s.JoinUnit).output(s.Membership)
    .mutation(({ ctx, input }) => joinUnit(ctx.deps, ctx.guildId, { kind: 'self', userId: requireSession(ctx).userId }, input.callsign, ctx.actor)),

  leave: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/me/unit' }, tag: 'Allgemein', summary: 'Leave the unit you occupy.',
      access: 'member', capability: 'timeclock.own.use', sessionOnly: true, module: 'dispatch', audit: 'unit.leave', topics: ['units'],
      errors: { 404: 'You have no personnel entry.', 409: 'You are not in a unit.' },
    })
    .input(s.LeaveUnit).output(s.Membership)
    .mutation(({ ctx }) => leaveUnit(ctx.deps, ctx.guildId, { kind: 'self', userId: requireSession(ctx).userId }, null, ctx.actor)),

  addMember: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/units/{callsign}/members/{userId}' }, tag: 'Leitstelle',
      summary: 'Put a person who is clocked in into a unit (moving them out of their current one).',
      access: 'admin', capability: 'dispatch.manage', module: 'dispatch', audit: 'unit.member_add', topics: ['units'],
      errors: { 404: 'No such unit or person.', 409: 'The person is not clocked in.' },
    })
    .input(s.MemberParams).output(s.Membership)
    .mutation(({ ctx, input }) => joinUnit(ctx.deps, ctx.guildId, { kind: 'dispatcher', userId: input.userId }, input.callsign, ctx.actor)),

  removeMember: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/units/{callsign}/members/{userId}' }, tag: 'Leitstelle',
      summary: 'Take a person out of a unit.',
      access: 'admin', capability: 'dispatch.manage', module: 'dispatch', audit: 'unit.member_remove', topics: ['units'],
      errors: { 404: 'No such unit or person, or the person is not in that unit.' },
    })
    .input(s.MemberParams).output(s.Membership)
    .mutation(({ ctx, input }) => leaveUnit(ctx.deps, ctx.guildId, { kind: 'dispatcher', userId: input.userId }, input.callsign, ctx.actor)),

  setStatus: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/units/{callsign}/status' }, tag: 'Leitstelle',
      summary: 'Set a unit\'s status as a dispatcher.',
      access: 'admin', capability: 'dispatch.manage', module: 'dispatch', audit: 'unit.status_set', topics: [...statusTopics],
      errors: { 400: 'Invalid body, or a status not in GET /admin/statuses.', 404: 'No such unit.' },
    })
    .input(s.SetUnitStatus).output(s.UnitStatusResult)
    .mutation(({ ctx, input }) => setUnitStatus(ctx.deps, ctx.guildId, input.callsign, input.status, ctx.actor, actorName(ctx))),

  selfStatus: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/me/unit-status' }, tag: 'Allgemein',
      summary: 'Set the status of the unit you occupy, optionally with a note for the desk (at most 200 characters; cleared by the next status change). 403 for any unit you do not occupy.',
      access: 'member', capability: 'timeclock.own.use', sessionOnly: true, module: 'dispatch', audit: 'unit.self_status', topics: [...statusTopics],
      errors: { 400: 'Invalid body, or a status not in GET /admin/statuses.' },
    })
    .input(s.SelfUnitStatus).output(s.UnitStatusResult)
    .mutation(({ ctx, input }) => setOwnUnitStatus(ctx.deps, ctx.guildId, requireSession(ctx).userId, input.callsign, input.status, ctx.actor, actorName(ctx), input.note)),

  gameStatus: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/integrations/ingame/unit-status' }, tag: 'Medic und InGame',
      summary: 'From the game: set the status of the unit the person with this badge occupies.',
      access: 'admin', capability: 'dispatch.manage', scopes: [...gameStatus], module: 'dispatch', topics: [...statusTopics],
      errors: { 400: 'Invalid body, or a status not in GET /admin/statuses.', 404: 'No person has the badge.', 409: 'The person is not in a unit.' },
    })
    .input(s.GameUnitStatus).output(s.UnitStatusResult)
    .mutation(({ ctx, input }) => setUnitStatusByBadge(ctx.deps, ctx.guildId, input.badge, input.status, ctx.actor, actorName(ctx))),
});
