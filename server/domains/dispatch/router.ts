import { guildProcedure, router } from '../../trpc/init.ts';
import { requireSession } from '../../trpc/session.ts';
import * as s from './schema.ts';
import { clearSlot, enterStandby, leaveSlots, listDispatchers, listStandby, removeStandby, takeSlot } from './service.ts';

const slotTopics = ['dispatchers', 'access', 'overview'] as const;
const standbyTopics = ['standby', 'overview'] as const;

export const dispatchRouter = router({
  list: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/dispatchers' }, tag: 'Leitstelle',
      summary: 'Occupied dispatcher slots (1 to 20) with who holds each since when.',
      access: 'view', capability: 'dispatch.view', module: 'dispatch',
    })
    .output(s.DispatcherList)
    .query(({ ctx }) => listDispatchers(ctx.deps, ctx.guildId)),

  set: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/admin/dispatchers/{slot}' }, tag: 'Leitstelle',
      summary: 'Give a slot to a person who is clocked in, replacing its holder; a person holds one slot, so their other slot is freed.',
      access: 'admin', capability: 'dispatch.manage', module: 'dispatch', audit: 'dispatchers.set', topics: [...slotTopics],
      errors: { 404: 'No such person.', 409: 'The person is not clocked in.' },
    })
    .input(s.SetSlot).output(s.SlotSet)
    .mutation(({ ctx, input }) => takeSlot(ctx.deps, ctx.guildId, { kind: 'admin', userId: input.userId }, input.slot, ctx.actor)),

  clear: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/admin/dispatchers/{slot}' }, tag: 'Leitstelle', summary: 'Free a dispatcher slot.',
      access: 'admin', capability: 'dispatch.manage', module: 'dispatch', audit: 'dispatchers.clear', topics: [...slotTopics],
      errors: { 404: 'The slot is free.' },
    })
    .input(s.SlotParam).output(s.SlotsCleared)
    .mutation(({ ctx, input }) => clearSlot(ctx.deps, ctx.guildId, input.slot, ctx.actor)),

  selfSet: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/me/dispatcher' }, tag: 'Allgemein',
      summary: 'Set yourself as dispatcher: the given slot, else the one you hold or the first free one. You must be clocked in.',
      access: 'member', capability: 'timeclock.own.use', sessionOnly: true, module: 'dispatch', audit: 'dispatchers.self_set', topics: [...slotTopics],
      errors: { 404: 'You have no personnel entry.', 409: 'You are not clocked in, the slot is taken, or all slots are taken.' },
    })
    .input(s.SelfDispatcher).output(s.SlotSet)
    .mutation(({ ctx, input }) => takeSlot(ctx.deps, ctx.guildId, { kind: 'self', userId: requireSession(ctx).userId }, input?.slot ?? null, ctx.actor)),

  selfClear: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/me/dispatcher' }, tag: 'Allgemein', summary: 'Stop being a dispatcher: frees your slot.',
      access: 'member', capability: 'timeclock.own.use', sessionOnly: true, module: 'dispatch', audit: 'dispatchers.self_clear', topics: [...slotTopics],
      errors: { 409: 'You hold no slot.' },
    })
    .input(s.SelfOnly).output(s.SlotsCleared)
    .mutation(({ ctx }) => leaveSlots(ctx.deps, ctx.guildId, requireSession(ctx).userId, ctx.actor)),

  standby: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/standby' }, tag: 'Leitstelle',
      summary: 'The stand-by roster: people who can be alarmed while off the board. Independent of the time clock.',
      access: 'view', capability: 'dispatch.view', module: 'dispatch',
    })
    .output(s.StandbyList)
    .query(({ ctx }) => listStandby(ctx.deps, ctx.guildId)),

  selfStandby: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/me/standby' }, tag: 'Allgemein',
      summary: 'Put yourself on stand-by (whether or not you are clocked in; clocking in or out does not change it). Repeating it changes nothing.',
      access: 'member', capability: 'timeclock.own.use', sessionOnly: true, module: 'dispatch', audit: 'standby.self_set', topics: [...standbyTopics],
      errors: { 404: 'You have no personnel entry.' },
    })
    .input(s.SelfOnly).output(s.StandbyEntry)
    .mutation(({ ctx }) => enterStandby(ctx.deps, ctx.guildId, requireSession(ctx).userId, ctx.actor)),

  selfStandbyEnd: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/me/standby' }, tag: 'Allgemein', summary: 'Take yourself off stand-by.',
      access: 'member', capability: 'timeclock.own.use', sessionOnly: true, module: 'dispatch', audit: 'standby.self_clear', topics: [...standbyTopics],
      errors: { 404: 'You have no personnel entry.', 409: 'You are not on stand-by.' },
    })
    .input(s.SelfOnly).output(s.StandbyRemoved)
    .mutation(({ ctx }) => removeStandby(ctx.deps, ctx.guildId, { kind: 'self', userId: requireSession(ctx).userId }, ctx.actor)),

  removeStandby: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/standby/{userId}' }, tag: 'Leitstelle', summary: 'Take a person off stand-by.',
      access: 'admin', capability: 'dispatch.manage', module: 'dispatch', audit: 'standby.remove', topics: [...standbyTopics],
      errors: { 404: 'No such person, or the person is not on stand-by.' },
    })
    .input(s.StandbyUserParam).output(s.StandbyRemoved)
    .mutation(({ ctx, input }) => removeStandby(ctx.deps, ctx.guildId, { kind: 'admin', userId: input.userId }, ctx.actor)),
});
