import { guildProcedure, router } from '../../trpc/init.ts';
import { requireSession } from '../../trpc/session.ts';
import * as s from './schema.ts';
import { clockIn, clockOut, clockStatus, onDuty } from './service.ts';

const gameClock = ['timeclock:shift.ingame_clock'] as const;

export const timeclockRouter = router({
  clockIn: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/admin/clock-in' }, tag: 'Administration', summary: 'Clock a person in by badge.',
      access: 'admin', capability: 'timeclock.manage', scopes: [...gameClock], module: 'timeclock', topics: [...s.clockInTopics],
      errors: { 404: 'No person has the badge.', 409: 'Already clocked in.' },
    })
    .input(s.ClockByBadge).output(s.ClockInResult)
    .mutation(({ ctx, input }) => clockIn(ctx.deps, ctx.guildId, { badge: input.badge }, { actor: ctx.actor, audited: false })),

  clockOut: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/admin/clock-out' }, tag: 'Administration',
      summary: 'Clock a person out by badge; frees their dispatcher slots and unit seats.',
      access: 'admin', capability: 'timeclock.manage', scopes: [...gameClock], module: 'timeclock', topics: [...s.clockOutTopics],
      errors: { 404: 'No person has the badge.', 409: 'Not clocked in.' },
    })
    .input(s.ClockByBadge).output(s.ClockOutResult)
    .mutation(({ ctx, input }) => clockOut(ctx.deps, ctx.guildId, { badge: input.badge }, { actor: ctx.actor, audited: false })),

  clockStatus: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/admin/clock-status/{badge}' }, tag: 'Administration', summary: 'Clock status of a badge.',
      access: 'admin', capability: 'timeclock.manage', scopes: [...gameClock], module: 'timeclock',
      errors: { 404: 'No person has the badge.' },
    })
    .input(s.BadgeParam).output(s.ClockStatus)
    .query(({ ctx, input }) => clockStatus(ctx.deps, ctx.guildId, input.badge)),

  onDuty: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/admin/on-duty' }, tag: 'Administration', summary: 'Everyone currently on duty.',
      access: 'admin', capability: 'timeclock.manage', scopes: [...gameClock, 'employees:read'], module: 'timeclock',
    })
    .output(s.OnDutyList)
    .query(({ ctx }) => onDuty(ctx.deps, ctx.guildId)),

  selfClockIn: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/me/clock-in' }, tag: 'Allgemein', summary: 'Clock yourself in.',
      access: 'member', capability: 'timeclock.own.use', sessionOnly: true, module: 'timeclock',
      audit: 'shift.clock_in', topics: [...s.clockInTopics],
      errors: { 404: 'You have no personnel entry.', 409: 'Already clocked in.' },
    })
    .input(s.SelfClock).output(s.ClockInResult)
    .mutation(({ ctx }) => clockIn(ctx.deps, ctx.guildId, { userId: requireSession(ctx).userId }, { actor: ctx.actor, audited: true })),

  selfClockOut: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/me/clock-out' }, tag: 'Allgemein',
      summary: 'Clock yourself out; frees your dispatcher slots and unit seat.',
      access: 'member', capability: 'timeclock.own.use', sessionOnly: true, module: 'timeclock',
      audit: 'shift.clock_out', topics: [...s.clockOutTopics],
      errors: { 404: 'You have no personnel entry.', 409: 'Not clocked in.' },
    })
    .input(s.SelfClock).output(s.ClockOutResult)
    .mutation(({ ctx }) => clockOut(ctx.deps, ctx.guildId, { userId: requireSession(ctx).userId }, { actor: ctx.actor, audited: true })),
});
