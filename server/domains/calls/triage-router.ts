import { z } from 'zod';
import { guildProcedure } from '../../trpc/init.ts';
import { IncidentDetail, IncidentNumber } from '../incidents/schema.ts';
import { callTriageLimits, dismissPresets } from '../../../contract/call-triage.ts';
import { actorName } from './actor.ts';
import * as s from './schema.ts';
import { attachCall, dismissCall, mergeCalls, sheetCalls } from './triage.ts';

const desk = { tag: 'Leitstelle', access: 'admin', capability: 'dispatch.manage', module: 'dispatch' } as const;
const notOpen = 'The call is not open: taken (reason call_taken), resolved by the game (call_resolved) or dismissed (call_dismissed); or the session\'s person is off duty (off_duty).';

/** Call triage at the desk (README "Triage"); spread into the calls router. */
export const triageProcedures = {
  dismiss: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/calls/{externalId}/dismiss' }, ...desk,
      summary: `Dismiss an open call with a reason (${dismissPresets.join(', ')}, or your own words up to ${callTriageLimits.dismissReason} characters): it leaves every board and is counted in GET /stats/einsatz. `
        + `For ${callTriageLimits.dismissHoldMs / 60_000} minutes a report of its externalId is refused with 409 call_dismissed; a resolve of it answers the dismissed call. A session must be on duty.`,
      audit: 'calls.dismiss', topics: ['calls', 'overview'],
      errors: { 404: 'No call with this externalId in this guild.', 409: notOpen },
    })
    .input(s.DismissCall).output(s.Call)
    .mutation(({ ctx, input }) => dismissCall(ctx.deps, ctx.guildId, input.externalId, input.reason, { actor: ctx.actor, by: actorName(ctx) })),

  attach: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/calls/{externalId}/attach' }, ...desk,
      summary: 'Attach an open call to an open incident sheet instead of making a new sheet of it: the call becomes taken with the sheet as its incidentNumber (attachedAt set), '
        + 'the sheet\'s timeline gets a report entry, and later reports of the externalId land on that sheet while it is open. A session must be on duty.',
      audit: 'calls.attach', topics: ['calls', 'overview', 'einsatzEntries'],
      errors: { 404: 'No call with this externalId, or no incident sheet with this number, in this guild.', 409: `${notOpen} Or the sheet is closed (incident_closed).` },
    })
    .input(s.AttachCall).output(z.object({ call: s.Call, incident: IncidentDetail.describe('The sheet with its timeline, after the entry.') }))
    .mutation(({ ctx, input }) => attachCall(ctx.deps, ctx.guildId, input.externalId, input.incident, { actor: ctx.actor, by: actorName(ctx) })),

  merge: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/calls/merge' }, ...desk,
      summary: `Take 2 to ${callTriageLimits.mergeCalls} open calls into one new incident sheet: it is made of the first (as POST /calls/{externalId}/take would), the others are attached to it in the order given. `
        + 'All or nothing: when one is not open, nothing changes. A session must be on duty.',
      audit: 'calls.merge', topics: ['calls', 'overview', 'einsatzEntries'],
      errors: { 404: 'One of the externalIds names no call in this guild.', 409: notOpen },
    })
    .input(s.MergeCalls).output(z.object({ calls: z.array(s.Call).describe('The calls, in the order given, now taken onto the sheet.'), incident: IncidentDetail }))
    .mutation(({ ctx, input }) => mergeCalls(ctx.deps, ctx.guildId, input.externalIds, input.keyword, { actor: ctx.actor, by: actorName(ctx) })),

  ofSheet: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/incidents/{number}/calls' }, tag: 'Leitstelle', access: 'view', capability: 'dispatch.view', module: 'dispatch',
      summary: 'The game calls of an incident sheet: the one it was made of and those attached to it, in the order they came to it (attachedAt tells attached ones apart).',
      errors: { 404: 'No incident sheet with this number in this guild.' },
    })
    .input(z.strictObject({ number: IncidentNumber })).output(s.CallList)
    .query(({ ctx, input }) => sheetCalls(ctx.deps, ctx.guildId, input.number)),
};
