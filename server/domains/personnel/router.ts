import { managementCapabilities } from '../../../contract/capabilities.ts';
import { guildProcedure, router } from '../../trpc/init.ts';
import { requireSession } from '../../trpc/session.ts';
import { callerOf } from './caller.ts';
import * as s from './schema.ts';
import {
  addHistory, createPerson, employeeByBadge, employeeByUserId, getPerson, historyPage, listPeople, ownActivity, personOut, updatePerson,
} from './service.ts';

const tag = 'Personalblatt';
const personTopics = ['onDuty', 'dispatchers', 'units', 'standby', 'access'] as const;

export const personnelRouter = router({
  list: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/personnel' }, tag, summary: 'All personnel sheets of the guild, highest rank first.',
      access: 'view', capability: 'personal.sheet.view', module: 'personnel',
    })
    .output(s.PersonList)
    .query(({ ctx }) => listPeople(ctx.deps, ctx.guildId)),

  get: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/personnel/{userId}' }, tag, summary: 'One personnel sheet.',
      access: 'view', capability: 'personal.sheet.view', module: 'personnel', errors: { 404: 'No person with this user id in the guild.' },
    })
    .input(s.UserIdParam).output(s.Person)
    .query(({ ctx, input }) => getPerson(ctx.deps, ctx.guildId, input.userId)),

  create: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/personnel' }, tag,
      summary: 'Create a personnel sheet (writes a "hired" history entry). isAdmin only by guild admins; a session without admin rights may give only a rank whose capabilities it holds itself.',
      access: 'admin', capability: 'personal.sheet.edit', module: 'personnel', audit: 'personal.create', topics: ['access'],
      errors: { 404: 'No such rank in the guild.', 409: 'The user id already has a sheet, or the badge is taken.' },
    })
    .input(s.CreatePerson).output(s.Person)
    .mutation(({ ctx, input }) => createPerson(ctx.deps, ctx.guildId, input, callerOf(ctx.principal, ctx.actor))),

  update: guildProcedure
    .meta({
      rest: { method: 'PATCH', path: '/personnel/{userId}' }, tag,
      summary: 'Change nickname, badge, rank, organisation unit or admin flag. A rank change writes a promotion/demotion history entry. isAdmin only by guild admins (the last admin keeps the flag); a session without admin rights may move a person only between ranks whose capabilities it holds itself.',
      access: 'admin', capability: 'personal.sheet.edit', module: 'personnel', audit: 'personal.update', topics: [...personTopics],
      errors: { 404: 'No such person or rank in the guild.', 409: 'The badge is taken, or the last admin would lose the flag.' },
    })
    .input(s.UpdatePerson).output(s.Person)
    .mutation(async ({ ctx, input }) => {
      const { userId, ...changes } = input;
      const { after } = await updatePerson(ctx.deps, ctx.guildId, { userId }, changes, callerOf(ctx.principal, ctx.actor), 'personal.update');
      return personOut(after);
    }),

  history: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/personnel/{userId}/history' }, tag, summary: 'History of a personnel sheet (promotions, notes, …), newest first, paged.',
      access: 'view', capability: 'personal.sheet.view', module: 'personnel', errors: { 404: 'No person with this user id in the guild.' },
    })
    .input(s.HistoryQuery).output(s.HistoryPage)
    .query(({ ctx, input }) => historyPage(ctx.deps, ctx.guildId, input.userId, input)),

  addHistory: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/personnel/{userId}/history' }, tag,
      summary: 'Add a history entry (note, warning, commendation, training, hired, left). Promotions and demotions are written by rank changes.',
      access: 'admin', capability: 'personal.sheet.edit', module: 'personnel', audit: 'personal.history_add',
      errors: { 404: 'No person with this user id in the guild.' },
    })
    .input(s.AddHistory).output(s.HistoryEntry)
    .mutation(({ ctx, input }) => addHistory(ctx.deps, ctx.guildId, input.userId, input, callerOf(ctx.principal, ctx.actor))),

  ownActivity: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/me/personal/activity' }, tag: 'Allgemein',
      summary: 'Activity of your own personnel file: duty totals, current shift, last shifts. Session only.',
      access: 'view', capability: 'personal.sheet.view', sessionOnly: true, module: 'personnel',
    })
    .output(s.Activity)
    .query(({ ctx }) => ownActivity(ctx.deps, ctx.guildId, requireSession(ctx).userId)),

  ownHistory: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/me/personal/history' }, tag: 'Allgemein',
      summary: 'History of your own personnel file, newest first, paged. Session only.',
      access: 'view', capability: 'personal.sheet.view', sessionOnly: true, module: 'personnel',
    })
    .input(s.OwnHistoryQuery).output(s.HistoryPage)
    .query(({ ctx, input }) => historyPage(ctx.deps, ctx.guildId, requireSession(ctx).userId, input ?? {})),

  // ---- Game (Medic und InGame) ----

  employeeByBadge: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/integrations/ingame/employees/{badge}' }, tag: 'Medic und InGame',
      summary: 'Who a player is, by badge: name, badge, rank, organisation unit, on duty.',
      access: 'view', capability: 'personal.sheet.view', scopes: ['employees:read'], module: 'personnel',
      errors: { 404: 'No person has the badge.' },
    })
    .input(s.BadgeParam).output(s.Employee)
    .query(({ ctx, input }) => employeeByBadge(ctx.deps, ctx.guildId, input.badge)),

  employeeByUserId: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/integrations/ingame/employees/user/{userId}' }, tag: 'Medic und InGame',
      summary: 'Who a player is, by chat-platform user id (e.g. the Discord id of the player).',
      access: 'view', capability: 'personal.sheet.view', scopes: ['employees:read'], module: 'personnel',
      errors: { 404: 'No person with this user id in the guild.' },
    })
    .input(s.UserIdParam).output(s.Employee)
    .query(({ ctx, input }) => employeeByUserId(ctx.deps, ctx.guildId, input.userId)),

  setGameRank: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/integrations/ingame/ranks' }, tag: 'Medic und InGame',
      summary: 'Set a person\'s rank from the game, by badge; rank by id or name, null for none. Writes a promotion/demotion history entry; the same rank again changes nothing. '
        + 'A scoped key holds no capability of its own: it may give and take away only ranks assignable from the game (a rank\'s gameAssignable, by default every rank without '
        + `${managementCapabilities.join(', ')}); anything else, the person's current rank included, is 403 naming the rank. `
        + 'A session without admin rights may move a person only between ranks whose capabilities it holds itself.',
      access: 'admin', capability: 'personal.sheet.edit', scopes: ['ranks:personal.ranks_set'], module: 'personnel',
      audit: 'personal.ranks_set', topics: ['onDuty', 'access'],
      errors: { 404: 'No person has the badge, or no such rank.' },
    })
    .input(s.SetGameRank).output(s.GameRankResult)
    .mutation(async ({ ctx, input }) => {
      const { before, after, changed } = await updatePerson(ctx.deps, ctx.guildId, { badge: input.badge }, { rank: input.rank }, callerOf(ctx.principal, ctx.actor), 'personal.ranks_set');
      return {
        userId: after.userId, nickname: after.nickname, badgeNumber: input.badge, rankId: after.rankId, rank: after.rank,
        previousRankId: before.rankId, previousRank: before.rank, changed,
      };
    }),
});
