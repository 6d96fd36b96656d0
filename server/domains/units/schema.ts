import { z } from 'zod';
import { Badge } from '../../core/badge.ts';
import { plain, trimmed } from '../../core/text.ts';
import { UnitTypeCode } from '../aao/schema.ts';

/** 1–24 characters: letters, digits, space, `.`, `_`, `/`, `-`; no space at either end. Unique per guild, case-insensitive. */
export const Callsign = z.string()
  .regex(/^[A-Za-z0-9._/-](?:[A-Za-z0-9 ._/-]{0,22}[A-Za-z0-9._/-])?$/, 'callsign must be 1 to 24 characters: letters, digits, space . _ / - (no space at either end)');

/** A status code: 1–4 letters or digits. Game scripts may send the FMS digit as a number. */
export const StatusCode = z.union([
  z.string().regex(/^[0-9A-Za-z]{1,4}$/, 'status must be a code of 1 to 4 letters or digits'),
  z.number().int('status must be a whole number').min(0, 'status must not be negative').max(9999, 'status has at most 4 digits').transform(String),
], { error: 'status must be a status code (string, or a number)' });

/** Discord-style user id as the people table stores it. */
export const UserId = z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, 'userId must be 1 to 64 letters, digits, _ or -');

/** Free text up to `max` characters, trimmed (may be empty); the text rule of core/text.ts. */
const Label = (what: string, max: number) => plain(what).trim().max(max, `${what} has at most ${max} characters`);

// ---- status catalogue -------------------------------------------------------------------------

export const Status = z.object({
  code: z.string(),
  label: z.string(),
  color: z.string().describe('#rrggbb'),
  alarm: z.boolean().describe('Units in this status are alarmed: listed in GET /me/alarm and the alarm topic. A dispatcher\'s alarm (POST /incidents/{number}/alarm) puts units in the first such status by position other than FMS 0.'),
  acknowledges: z.boolean().describe('A unit entering this status acknowledges its alarms (FMS 3 "Einsatz übernommen" by default).'),
  available: z.boolean().describe('Units in this status are available for AAO proposals (FMS 1 and 2 by default).'),
  position: z.number().int(),
});
export const StatusList = z.object({ statuses: z.array(Status) });

export const StatusCodeParam = z.strictObject({ code: StatusCode });
export const PutStatus = z.strictObject({
  code: StatusCode,
  label: trimmed(40, 'label'),
  color: z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'color must be #rrggbb').transform((c) => c.toLowerCase()),
  alarm: z.boolean(),
  acknowledges: z.boolean().optional().describe('Entering this status acknowledges the unit\'s alarms; omitted: an existing status keeps its flag, a new one gets false.'),
  available: z.boolean().optional().describe('Units in this status are available for AAO proposals; omitted: an existing status keeps its flag, a new one gets false.'),
  position: z.number().int().min(0, 'position must be 0 to 999').max(999, 'position must be 0 to 999').optional()
    .describe('Sort position; new codes go last when omitted, existing ones keep theirs.'),
});
export const StatusDeleted = z.object({ deleted: z.literal(true), code: z.string() });

// ---- units -------------------------------------------------------------------------------------

export const Member = z.object({ userId: z.string(), nickname: z.string(), since: z.date() });
export const Unit = z.object({
  callsign: z.string(),
  label: z.string(),
  orgUnit: z.string().describe('Organisation unit, e.g. the station or service.'),
  type: z.string().nullable().describe('Unit type, a code of GET /admin/unit-types (RTW, NEF …); null: none.'),
  status: z.string().describe('Code from GET /admin/statuses.'),
  statusLabel: z.string().nullable(),
  alarm: z.boolean().describe('Whether the current status carries alarm: true.'),
  since: z.date().describe('When the current status was set.'),
  note: z.string().nullable().describe('The crew\'s note with the current status (PUT /me/unit-status), or null.'),
  members: z.array(Member),
});
/** A unit's position as GET /units gives it. */
export const UnitPositionOut = z.object({
  x: z.number(), y: z.number(), z: z.number(), heading: z.number(), speed: z.number(),
  at: z.date().describe('When a server received it.'),
  ageSeconds: z.number().describe('Seconds since `at`, one decimal.'),
  stale: z.boolean().describe('Older than the guild\'s stale time (default 60 s): greyed on the map, not used for "nearest first".'),
});

export const UnitList = z.object({
  units: z.array(Unit.extend({
    position: UnitPositionOut.nullable().describe('The last position the game sent (PUT /integrations/ingame/positions), or null.'),
  })),
});

export const CallsignParam = z.strictObject({ callsign: Callsign });
const TypeOfUnit = UnitTypeCode.nullable().describe('A code of GET /admin/unit-types, in any case; null: none.');
export const CreateUnit = z.strictObject({
  callsign: Callsign,
  label: Label('label', 60).optional(),
  orgUnit: Label('orgUnit', 60).optional(),
  type: TypeOfUnit.optional(),
});
export const PatchUnit = z.strictObject({
  callsign: Callsign,
  newCallsign: Callsign.optional().describe('Renames the unit; only while nobody occupies it.'),
  label: Label('label', 60).optional(),
  orgUnit: Label('orgUnit', 60).optional(),
  type: TypeOfUnit.optional().describe('A code of GET /admin/unit-types, in any case; null clears it.'),
}).refine((p) => p.newCallsign !== undefined || p.label !== undefined || p.orgUnit !== undefined || p.type !== undefined, 'give at least one of newCallsign, label, orgUnit, type');
export const UnitDeleted = z.object({ deleted: z.literal(true), callsign: z.string() });

export const JoinUnit = z.strictObject({ callsign: Callsign });
export const MemberParams = z.strictObject({ callsign: Callsign, userId: UserId });
export const Membership = z.object({
  userId: z.string(),
  callsign: z.string().nullable().describe('The unit the person is in now; null after leaving.'),
  left: z.string().nullable().describe('The unit the person left by this call, if any.'),
});
/** `DELETE /me/unit` takes nothing, or an empty object. */
export const LeaveUnit = z.strictObject({}).optional();

// ---- statuses of units -------------------------------------------------------------------------

export const SetUnitStatus = z.strictObject({ callsign: Callsign, status: StatusCode });
/** A crew's note with its status (e.g. what a Sprechwunsch is about): at most this many characters. */
export const MAX_STATUS_NOTE = 200;
export const SelfUnitStatus = z.strictObject({
  callsign: Callsign,
  status: StatusCode,
  note: plain('note').trim().max(MAX_STATUS_NOTE, `note has at most ${MAX_STATUS_NOTE} characters`).optional()
    .describe('Optional note for the desk (e.g. with 5 Sprechwunsch), shown on the unit until its next status change; empty: none.'),
});
export const GameUnitStatus = z.strictObject({ badge: Badge, status: StatusCode });
export const UnitStatusResult = z.object({
  callsign: z.string(),
  status: z.string(),
  statusLabel: z.string(),
  alarm: z.boolean(),
  previous: z.string().describe('The status before this change.'),
  since: z.date(),
  note: z.string().nullable().describe('The crew\'s note with this status (PUT /me/unit-status), or null.'),
});

/** A unit as its crew chooses it (`GET /me/units`): no names of the people in it. */
export const CrewUnit = z.object({
  callsign: z.string(),
  label: z.string(),
  orgUnit: z.string().describe('Organisation unit, e.g. the station.'),
  status: z.string(),
  statusLabel: z.string().nullable(),
  crew: z.number().int().describe('How many people occupy it.'),
});
export const CrewUnitList = z.object({ units: z.array(CrewUnit) });
