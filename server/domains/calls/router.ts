import { z } from 'zod';
import { guildProcedure, router } from '../../trpc/init.ts';
import * as s from './schema.ts';
import { callLimits } from '../../../contract/limits.ts';
import { callTriageLimits } from '../../../contract/call-triage.ts';
import { getCallRateLimit, setCallRateLimit } from './rate-limit.ts';
import { listOpenCalls, reportCall, resolveCall, takeCall } from './service.ts';
import { actorName } from './actor.ts';
import { triageProcedures } from './triage-router.ts';
import { IncidentDetail } from '../incidents/schema.ts';

const TakeResult = z.object({ call: s.Call, incident: IncidentDetail.describe('The incident sheet made of the call.') });

export { actorName };

const dismissed = `The newest call of this externalId was dismissed by a dispatcher less than ${callTriageLimits.dismissHoldMs / 60_000} minutes ago: reason call_dismissed, params call, dismissReason and until (ISO time); nothing is stored. Tell the player; a new emergency gets a new externalId.`;

const tooMany = `Open-call limit: ${callLimits.openCalls} calls are open in this guild (re-reports of an open externalId always pass), or the per-key rate limit was hit (with a Retry-After header; see PUT /admin/call-rate-limit). The two are told apart by their message.`;

export const callsRouter = router({
  report: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/integrations/ingame/calls' }, tag: 'Medic und InGame',
      summary: 'Report a call from the game (emergency call, panic, alarm, tip). A new externalId opens a call; the same externalId on an open call updates it (fields sent replace, fields left out stay) and increments reportCount. On a taken call whose incident sheet is still open it does the same to that call (the answer has status taken) and adds a report entry to the sheet\'s timeline; after the sheet is closed, or the call resolved, it opens a new call.',
      access: 'admin', capability: 'dispatch.manage', scopes: ['calls:call.report'], module: 'dispatch', topics: ['calls', 'overview', 'einsatzEntries'],
      errors: { 409: dismissed, 429: tooMany },
    })
    .input(s.ReportCall).output(s.Call)
    .mutation(({ ctx, input }) => reportCall(ctx.deps, ctx.guildId, input, { actor: ctx.actor, by: actorName(ctx) })),

  resolve: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/integrations/ingame/calls/{externalId}/resolve' }, tag: 'Medic und InGame',
      summary: 'Resolve the newest call with this externalId (for example resolution "reached"); a later report of the id opens a new call. An open call leaves the board; a call a dispatcher has taken keeps takenAt, takenBy and incidentNumber, and its incident sheet, while open, gets a resolved entry. Resolving a resolved call again, or a call a dispatcher dismissed (status dismissed, with dismissReason), answers the call as stored and changes nothing.',
      access: 'admin', capability: 'dispatch.manage', scopes: ['calls:call.report'], module: 'dispatch',
      audit: 'calls.resolve', topics: ['calls', 'overview', 'einsatzEntries'],
      errors: { 404: 'No call with this externalId was ever reported in this guild.' },
    })
    .input(s.ResolveCall).output(s.Call)
    .mutation(({ ctx, input }) => resolveCall(ctx.deps, ctx.guildId, input.externalId, input.resolution, { actor: ctx.actor, by: actorName(ctx) })),

  ingameList: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/integrations/ingame/calls' }, tag: 'Medic und InGame',
      summary: 'Open calls of the guild, most urgent first, for game scripts.',
      access: 'view', capability: 'dispatch.view', scopes: ['calls:read'], module: 'dispatch',
    })
    .output(s.CallList)
    .query(({ ctx }) => listOpenCalls(ctx.deps, ctx.guildId)),

  list: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/calls' }, tag: 'Leitstelle',
      summary: 'Open calls from the game ("Meldungen aus dem Spiel"), most urgent first; the live view is topic calls.',
      access: 'view', capability: 'dispatch.view', module: 'dispatch',
    })
    .output(s.CallList)
    .query(({ ctx }) => listOpenCalls(ctx.deps, ctx.guildId)),

  take: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/calls/{externalId}/take' }, tag: 'Leitstelle',
      summary: 'Take an open call: it becomes taken and an incident sheet (Einsatzblatt) is created from it and linked, recording who took it and when. A session must be on duty (clocked in); API keys need not.',
      access: 'admin', capability: 'dispatch.manage', module: 'dispatch',
      audit: 'calls.take', topics: ['calls', 'overview', 'einsatzEntries'],
      errors: { 404: 'No call with this externalId in this guild.', 409: 'The call was already taken or is resolved, or the session\'s person is off duty.' },
    })
    .input(s.TakeCall).output(TakeResult)
    .mutation(({ ctx, input }) => takeCall(ctx.deps, ctx.guildId, input.externalId, input.keyword, { actor: ctx.actor, by: actorName(ctx) })),

  ...triageProcedures,

  rateLimit: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/admin/call-rate-limit' }, tag: 'Einrichtung',
      summary: 'The per-key rate limit of call reports (token bucket: perMinute refill, burst capacity).',
      access: 'admin', capability: 'settings.manage',
    })
    .output(s.CallRateLimitOut)
    .query(({ ctx }) => getCallRateLimit(ctx.deps, ctx.guildId)),

  setRateLimit: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/admin/call-rate-limit' }, tag: 'Einrichtung',
      summary: 'Set the per-key rate limit of call reports for this guild (default 120 a minute, bursts of 60).',
      access: 'admin', capability: 'settings.manage', audit: 'calls.rate_limit_set', topics: ['settings'],
    })
    .input(s.CallRateLimit).output(s.CallRateLimitOut)
    .mutation(({ ctx, input }) => setCallRateLimit(ctx.deps, ctx.guildId, input, ctx.actor)),
});
