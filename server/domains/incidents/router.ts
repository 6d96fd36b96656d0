import { guildProcedure, router } from '../../trpc/init.ts';
import { actorName } from '../calls/router.ts';
import * as s from './schema.ts';
import * as svc from './service.ts';
import { alarmUnits } from './alarm.ts';
import { listIncidents } from './search.ts';

const manage = { access: 'admin', capability: 'incidents.manage', module: 'incidents' } as const;
const closed = 'The incident sheet is closed';

export const incidentsRouter = router({
  list: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/incidents' }, tag: 'Einsatzblatt',
      summary: 'Incident sheets, newest first, a page at a time: filter by state, search words (q), unit, and the days created (from, to); nextCursor fetches the next page.',
      errors: { 400: 'A bad parameter: q too long or over 8 words, a date that does not exist, from after to, a cursor that is not a nextCursor, a limit out of 1..500.' },
      access: 'view', capability: 'dispatch.view', module: 'incidents',
    })
    .input(s.ListIncidents).output(s.IncidentList)
    .query(({ ctx, input }) => listIncidents(ctx.deps, ctx.guildId, input ?? {})),

  get: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/incidents/{number}' }, tag: 'Einsatzblatt',
      summary: 'One incident sheet with its units and timeline.',
      access: 'view', capability: 'dispatch.view', module: 'incidents',
      errors: { 404: 'No incident sheet with this number in this guild.' },
    })
    .input(s.NumberParam).output(s.IncidentDetail)
    .query(({ ctx, input }) => svc.getIncident(ctx.deps, ctx.guildId, input.number)),

  create: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/incidents' }, tag: 'Einsatzblatt',
      summary: 'Create an incident sheet by hand (a taken game call creates one by itself).',
      ...manage, audit: 'incident.create', topics: ['einsatzEntries'],
    })
    .input(s.CreateIncident).output(s.IncidentDetail)
    .mutation(({ ctx, input }) => svc.createIncident(ctx.deps, ctx.guildId, input, { actor: ctx.actor, by: actorName(ctx) })),

  update: guildProcedure
    .meta({
      rest: { method: 'PATCH', path: '/incidents/{number}' }, tag: 'Einsatzblatt',
      summary: 'Edit keyword, location or priority with the version you read; the version bumps by 1.',
      ...manage, audit: 'incident.update', topics: ['einsatzEntries'],
      errors: { 404: 'No incident sheet with this number in this guild.', 409: `Stale version, or ${closed.toLowerCase()}.` },
    })
    .input(s.UpdateIncident).output(s.IncidentDetail)
    .mutation(({ ctx, input }) => svc.updateIncident(ctx.deps, ctx.guildId, input, { actor: ctx.actor, by: actorName(ctx) })),

  assignUnit: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/incidents/{number}/units/{callsign}' }, tag: 'Einsatzblatt',
      summary: 'Assign a unit of this guild to the sheet (assigning it again changes nothing).',
      ...manage, audit: 'incident.unit_assign', topics: ['einsatzEntries'],
      errors: { 404: 'No such incident sheet, or no unit with this callsign in this guild.', 409: `${closed}.` },
    })
    .input(s.UnitParam).output(s.IncidentDetail)
    .mutation(({ ctx, input }) => svc.assignUnit(ctx.deps, ctx.guildId, input.number, input.callsign, { actor: ctx.actor, by: actorName(ctx) })),

  releaseUnit: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/incidents/{number}/units/{callsign}' }, tag: 'Einsatzblatt',
      summary: 'Release a unit from the sheet.',
      ...manage, audit: 'incident.unit_release', topics: ['einsatzEntries'],
      errors: { 404: 'No such incident sheet, no unit with this callsign, or the unit is not assigned to it.', 409: `${closed}.` },
    })
    .input(s.UnitParam).output(s.IncidentDetail)
    .mutation(({ ctx, input }) => svc.releaseUnit(ctx.deps, ctx.guildId, input.number, input.callsign, { actor: ctx.actor, by: actorName(ctx) })),

  alarm: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/incidents/{number}/alarm' }, tag: 'Einsatzblatt',
      summary: 'Alarm units for the sheet (1 to 20 callsigns): each is assigned if need be, enters the guild\'s alarm status for dispatch (code A "Alarmiert" by default), and gets alarmedAt now; alarming it again re-sets alarmedAt and clears its acknowledgement. The crew acknowledges by a status with acknowledges: true (FMS 3). Answers the sheet with per-unit alarmedAt, acknowledgedAt and unacknowledged.',
      access: 'admin', capability: 'dispatch.manage', module: 'incidents', audit: 'incident.alarm', topics: ['einsatzEntries', 'units', 'alarm', 'overview'],
      errors: {
        400: 'No callsigns, more than 20, a unit named twice, or an invalid callsign.',
        404: 'No incident sheet with this number in this guild, or no unit with a callsign given (the message names it).',
        409: 'The sheet is closed (incident_closed); a unit is on another open sheet and force is not true (unit_on_other_incident); or the catalogue has no alarm status (no_alarm_status).',
      },
    })
    .input(s.AlarmUnits).output(s.IncidentDetail)
    .mutation(({ ctx, input }) => alarmUnits(ctx.deps, ctx.guildId, input, { actor: ctx.actor, by: actorName(ctx) })),

  addEntry: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/incidents/{number}/entries' }, tag: 'Einsatzblatt',
      summary: 'Add a timeline entry (at most 1000 characters).',
      ...manage, audit: 'incident.entry_add', topics: ['einsatzEntries'],
      errors: { 404: 'No incident sheet with this number in this guild.', 409: `${closed}.` },
    })
    .input(s.AddEntry).output(s.Entry)
    .mutation(({ ctx, input }) => svc.addEntry(ctx.deps, ctx.guildId, input.number, input.text, { actor: ctx.actor, by: actorName(ctx) })),

  close: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/incidents/{number}/close' }, tag: 'Einsatzblatt',
      summary: 'Close the sheet; afterwards it can be read but not written.',
      ...manage, audit: 'incident.close', topics: ['einsatzEntries'],
      errors: { 404: 'No incident sheet with this number in this guild.', 409: 'Already closed, or stale version.' },
    })
    .input(s.CloseIncident).output(s.IncidentDetail)
    .mutation(({ ctx, input }) => svc.closeIncident(ctx.deps, ctx.guildId, input.number, input.version, { actor: ctx.actor, by: actorName(ctx) })),
});
