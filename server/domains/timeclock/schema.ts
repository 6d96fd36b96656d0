import { z } from 'zod';
import { Badge } from '../../core/badge.ts';
import type { Topic } from '../../../contract/topics.ts';

/** Topics a clock-in and a clock-out update: the keys of their events' deltas, and their routes' meta. */
export const clockInTopics = ['onDuty', 'overview', 'dispatchers', 'alarm', 'standby'] as const satisfies readonly Topic[];
export const clockOutTopics = ['onDuty', 'overview', 'dispatchers', 'units', 'alarm', 'access', 'einsatzEntries'] as const satisfies readonly Topic[];

export const ClockByBadge = z.strictObject({ badge: Badge });
export const BadgeParam = z.strictObject({ badge: Badge });
/** `/me/clock-in|out` take an optional, currently empty object. */
export const SelfClock = z.strictObject({}).optional();

const BadgeNumber = z.string().nullable().describe('At least two digits, e.g. "01"; null for a person without a badge.');
const ShiftStatus = z.enum(['OPEN', 'CLOSED', 'AUTO_CLOSED']);

export const ClockInResult = z.object({
  badgeNumber: BadgeNumber,
  userId: z.string(),
  nickname: z.string(),
  clockInAt: z.date(),
  status: z.literal('OPEN'),
});

export const ClockOutResult = z.object({
  badgeNumber: BadgeNumber,
  userId: z.string(),
  nickname: z.string(),
  clockInAt: z.date(),
  clockOutAt: z.date(),
  durationMs: z.number().int(),
  status: z.literal('CLOSED'),
  clearedDispatcherSlots: z.array(z.number().int()).describe('Dispatcher slots the person held, now free.'),
  leftUnits: z.array(z.string()).describe('Callsigns of the units the person was removed from.'),
});

export const ClockStatus = z.object({
  badgeNumber: z.string(),
  clockedIn: z.boolean(),
  status: z.enum(['OPEN', 'CLOSED', 'AUTO_CLOSED', 'OFF_DUTY']).describe('OPEN while clocked in; else the last shift\'s end status, or OFF_DUTY when there was none.'),
  since: z.date().describe('Clock-in time while on duty, else the last clock-out; for someone never clocked in, when the person was added.'),
});

export const OnDutyPerson = z.object({
  userId: z.string(),
  nickname: z.string(),
  badgeNumber: BadgeNumber,
  rank: z.string().nullable(),
  clockInAt: z.date(),
  durationMs: z.number().int(),
});
export const OnDutyList = z.object({ count: z.number().int(), people: z.array(OnDutyPerson) });

export { ShiftStatus };
