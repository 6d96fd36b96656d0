import { z } from 'zod';
import { Badge } from '../../core/badge.ts';
import { trimmed } from '../../core/text.ts';

export const UserId = z.string({ error: 'userId must be a string' })
  .regex(/^[0-9A-Za-z_-]{1,32}$/, 'userId must be 1 to 32 characters of 0-9, A-Z, a-z, _ and -')
  .describe('Chat-platform user id (e.g. a Discord snowflake).');
const Nickname = trimmed(64, 'nickname');
const OrgUnit = trimmed(64, 'orgUnit', 'orgUnit must be a string or null', ' (send null for none)')
  .nullable().describe('Organisation unit (e.g. "Rettungswache Nord"); null for none.');
export const RankRef = trimmed(64, 'rank', 'rank must be a rank id or name, or null', ' (send null for no rank)')
  .nullable().describe('Rank id or (case-insensitive) name; null for no rank.');
const IsAdmin = z.boolean({ error: 'isAdmin must be true or false' })
  .describe('Guild admin rights (pass every capability check). Only guild admins and unscoped API keys may set it.');

/** A small positive count from a query string ("20") or a number (tRPC). */
const Count = (name: string, max: number) => z.union([z.number(), z.string().regex(/^\d{1,6}$/, `${name} must be a whole number`).transform(Number)])
  .pipe(z.number().int(`${name} must be a whole number`).min(1, `${name} is at least 1`).max(max, `${name} is at most ${max}`));
const EntryId = z.union([z.number().int().min(1), z.string().regex(/^\d{1,18}$/, 'before must be a history entry id')])
  .transform(String);

export const UserIdParam = z.strictObject({ userId: UserId });
export const BadgeParam = z.strictObject({ badge: Badge });

export const CreatePerson = z.strictObject({
  userId: UserId,
  nickname: Nickname,
  badge: Badge.nullable().optional().describe('Unique in the guild; 1, "1" and "01" are one badge. null or absent: none.'),
  rank: RankRef.optional(),
  orgUnit: OrgUnit.optional(),
  isAdmin: IsAdmin.optional(),
});

const changeable = ['nickname', 'badge', 'rank', 'orgUnit', 'isAdmin'] as const;
export const UpdatePerson = z.strictObject({
  userId: UserId,
  nickname: Nickname.optional(),
  badge: Badge.nullable().optional().describe('Unique in the guild; null removes the badge.'),
  rank: RankRef.optional(),
  orgUnit: OrgUnit.optional(),
  isAdmin: IsAdmin.optional(),
}).refine((p) => changeable.some((k) => p[k] !== undefined), `give at least one of ${changeable.join(', ')}`);

/** Kinds a caller may write; promotion, demotion and rank_change are written by rank changes themselves. */
export const manualHistoryKinds = ['note', 'warning', 'commendation', 'training', 'hired', 'left'] as const;
export const historyKinds = ['hired', 'promotion', 'demotion', 'rank_change', 'note', 'warning', 'commendation', 'training', 'left'] as const;

export const AddHistory = z.strictObject({
  userId: UserId,
  kind: z.enum(manualHistoryKinds, {
    error: (iss) => (['promotion', 'demotion', 'rank_change'] as unknown[]).includes(iss.input)
      ? `kind ${String(iss.input)} is written by the server when the rank changes (PATCH /personnel/{userId} {rank})`
      : `kind must be one of ${manualHistoryKinds.join(', ')}`,
  }),
  text: trimmed(1000, 'text'),
});

export const HistoryQuery = z.strictObject({
  userId: UserId,
  limit: Count('limit', 200).optional().describe('Entries per page, 1 to 200 (default 50).'),
  before: EntryId.optional().describe('Page further back: only entries older than this entry id (nextBefore of the previous page).'),
});
export const OwnHistoryQuery = HistoryQuery.omit({ userId: true }).optional();

export const Person = z.object({
  userId: z.string(),
  nickname: z.string(),
  badgeNumber: z.string().nullable().describe('At least two digits, e.g. "07"; null without a badge.'),
  rankId: z.string().nullable(),
  rank: z.string().nullable().describe('Rank name.'),
  orgUnit: z.string().nullable(),
  isAdmin: z.boolean(),
  onDuty: z.boolean(),
  createdAt: z.date(),
});
export const PersonList = z.object({ count: z.number().int(), people: z.array(Person) });

export const HistoryEntry = z.object({
  id: z.string(),
  userId: z.string(),
  kind: z.enum(historyKinds),
  text: z.string(),
  rankChange: z.object({ from: z.string().nullable(), to: z.string().nullable() }).nullable()
    .describe('Rank names before and after, for hired, promotion, demotion and rank_change entries written by the server.'),
  by: z.object({
    kind: z.enum(['session', 'key', 'system']),
    id: z.string().describe('User id (session) or API key id.'),
    name: z.string().nullable().describe('Nickname or key name; null when gone.'),
  }),
  at: z.date(),
});
export const HistoryPage = z.object({
  userId: z.string(),
  entries: z.array(HistoryEntry).describe('Newest first.'),
  nextBefore: z.string().nullable().describe('Pass as `before` for the next (older) page; null on the last page.'),
});

export const Activity = z.object({
  userId: z.string(),
  onDuty: z.boolean(),
  currentShift: z.object({ clockInAt: z.date(), durationMs: z.number().int() }).nullable(),
  totals: z.object({
    totalMs: z.number().int().describe('Duty time of all completed shifts.'),
    shiftCount: z.number().int().describe('Completed shifts.'),
    last7DaysMs: z.number().int().describe('Duty time of completed shifts begun in the last 7 days.'),
    last30DaysMs: z.number().int().describe('Duty time of completed shifts begun in the last 30 days.'),
  }),
  firstShiftAt: z.date().nullable(),
  lastShifts: z.array(z.object({
    clockInAt: z.date(), clockOutAt: z.date(), durationMs: z.number().int(), status: z.enum(['CLOSED', 'AUTO_CLOSED']),
  })).describe('The 10 most recent completed shifts, newest first.'),
});

// ---- Game ------------------------------------------------------------------------------------

export const Employee = z.object({
  userId: z.string(),
  nickname: z.string(),
  badgeNumber: z.string().nullable().describe('Two digits at least, e.g. "07".'),
  rankId: z.string().nullable(),
  rank: z.string().nullable().describe('Rank name.'),
  orgUnit: z.string().nullable(),
  onDuty: z.boolean(),
});

export const SetGameRank = z.strictObject({
  badge: Badge,
  rank: RankRef,
});
export const GameRankResult = z.object({
  userId: z.string(),
  nickname: z.string(),
  badgeNumber: z.string(),
  rankId: z.string().nullable(),
  rank: z.string().nullable(),
  previousRankId: z.string().nullable(),
  previousRank: z.string().nullable(),
  changed: z.boolean().describe('false when the person already had this rank (nothing written).'),
});
