import { z } from 'zod';
import { plain, text } from '../../core/text.ts';
import { parseDay } from '../stats/zone.ts';
import { decodeCursor } from './cursor.ts';
import { incidentLimits } from '../../../contract/limits.ts';
import { ActorRef, Keyword, Location, LocationOut, Priority } from '../calls/schema.ts';
import { Callsign } from '../units/schema.ts';

const MAX_INT = 2_147_483_647;
const numberError = 'number must be a whole number from 1';

/** Incident sheet numbers: 1, 2, 3 … per guild; `7` and `"7"` are the same sheet (path parameters are strings). */
export const IncidentNumber = z
  .union([z.number({ error: numberError }), z.string().regex(/^[0-9]{1,10}$/, numberError).transform(Number)], { error: numberError })
  .pipe(z.number().int(numberError).min(1, numberError).max(MAX_INT, 'number is too large'));

const Limit = z
  .union([z.number(), z.string().regex(/^[0-9]{1,4}$/, 'limit must be a whole number from 1 to 500').transform(Number)], { error: 'limit must be a whole number from 1 to 500' })
  .pipe(z.number().int('limit must be a whole number from 1 to 500').min(1, 'limit must be a whole number from 1 to 500').max(500, 'limit must be a whole number from 1 to 500'));

/** Search words: printable text, at most 200 characters, at most 8 words. */
const SearchText = plain('q').max(incidentLimits.searchText, `q has at most ${incidentLimits.searchText} characters`)
  .refine((s) => s.trim().split(/\s+/).length <= 8, 'q has at most 8 words');

const Day = (name: string) => z.string({ error: `${name} must be a date YYYY-MM-DD` })
  .refine((s) => parseDay(s) !== null, `${name} must be a date YYYY-MM-DD that exists (e.g. 2026-02-28)`);

/** An opaque page cursor (the number of the last sheet of the page before, encoded). */
const Cursor = z.string({ error: 'cursor must be the nextCursor of a page' })
  .refine((s) => decodeCursor(s) !== null, 'cursor is not a nextCursor of this list (send it as it was answered)');

export const IncidentState = z.enum(['open', 'closed'], { error: 'state must be open or closed' });
export const EntryKind = z.enum(['note', 'created', 'updated', 'unit_assigned', 'unit_released', 'closed', 'report', 'resolved', 'unit_alarmed', 'unit_acknowledged']);

export const ListIncidents = z.strictObject({
  state: IncidentState.optional().describe('Only open or only closed sheets; default both.'),
  limit: Limit.optional().describe('At most this many, newest first; 1 to 500, default 100.'),
  q: SearchText.optional().describe(`Search words (at most ${incidentLimits.searchText} characters, 8 words): a sheet matches when each word is found, in any case, in its keyword, location (text, street, postal), a unit ever on it, the game caller's name or phone, or the name of its creator or of anyone who wrote to its timeline. A number alone also finds the sheet with that number.`),
  unit: Callsign.optional().describe('Only sheets this unit (callsign, any case) was ever assigned or alarmed to.'),
  from: Day('from').optional().describe('Only sheets created on this day (YYYY-MM-DD, the guild\'s time zone) or later.'),
  to: Day('to').optional().describe('Only sheets created on this day or earlier (included).'),
  cursor: Cursor.optional().describe('nextCursor of the page before: the next page of the same query (same q, unit, from, to, state).'),
}).refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] }).optional();

export const NumberParam = z.strictObject({ number: IncidentNumber });

export const CreateIncident = z.strictObject({
  keyword: Keyword.describe('Einsatzstichwort, at most 120 characters.'),
  location: Location.optional(),
  priority: Priority.optional().describe('1 high, 2 normal, 3 low; default: the default priority of the AAO keyword the keyword matches (GET /admin/keywords), else 2.'),
});

const Version = z.number({ error: 'version must be a whole number' }).int('version must be a whole number').min(1, 'version must be at least 1').max(MAX_INT, 'version is too large');

export const UpdateIncident = z.strictObject({
  number: IncidentNumber,
  version: Version.describe('The version you read; a stale one is 409.'),
  keyword: Keyword.optional(),
  location: Location.nullable().optional().describe('null clears it.'),
  priority: Priority.optional(),
}).refine((b) => b.keyword !== undefined || b.location !== undefined || b.priority !== undefined, 'send at least one of keyword, location, priority');

export const CloseIncident = z.strictObject({
  number: IncidentNumber,
  version: Version.optional().describe('When given, a stale version is 409.'),
});

export const UnitParam = z.strictObject({
  number: IncidentNumber,
  callsign: Callsign.describe('Callsign of a unit of this guild, in any case.'),
});

export const AddEntry = z.strictObject({
  number: IncidentNumber,
  text: text(incidentLimits.entryText, 'text'),
});

export const AlarmUnits = z.strictObject({
  number: IncidentNumber,
  callsigns: z.array(Callsign.describe('Callsign of a unit of this guild, in any case.'), { error: 'callsigns must be an array of callsigns' })
    .min(1, 'callsigns must name at least one unit').max(incidentLimits.alarmUnits, `callsigns names at most ${incidentLimits.alarmUnits} units`)
    .refine((list) => new Set(list.map((c) => c.toLowerCase())).size === list.length, 'callsigns must not repeat a unit'),
  force: z.boolean({ error: 'force must be true or false' }).optional()
    .describe('Alarm units that are on another open sheet anyway; they are released from it. Without it such units are 409 unit_on_other_incident.'),
});

export const IncidentUnit = z.object({
  callsign: z.string(),
  label: z.string(),
  assignedAt: z.date(),
  alarmedAt: z.date().nullable().describe('When the unit was last alarmed for this sheet; null: assigned without an alarm.'),
  acknowledgedAt: z.date().nullable().describe('When the unit acknowledged that alarm (entered a status with acknowledges: true); null: not yet.'),
  unacknowledged: z.boolean().describe('Alarmed, not acknowledged, and alarmedAt lies more than alarmAckTimeoutS seconds back (computed when read).'),
});

export const Incident = z.object({
  number: z.number().int(),
  keyword: z.string(),
  location: LocationOut.nullable(),
  priority: z.number().int(),
  state: IncidentState,
  version: z.number().int().describe('Bumps by 1 with every change of keyword, location, priority or state.'),
  call: z.object({ id: z.string(), externalId: z.string() }).nullable().describe('The game call this sheet was made of.'),
  createdAt: z.date(),
  updatedAt: z.date(),
  closedAt: z.date().nullable(),
  createdBy: ActorRef,
  units: z.array(IncidentUnit).describe('Assigned units, in order of assignment.'),
});
export type IncidentOut = z.infer<typeof Incident>;

export const Entry = z.object({
  id: z.string(),
  number: z.number().int(),
  kind: EntryKind.describe('note: written by a person; report: the game reported the sheet\'s call again; resolved: the game resolved it; the others: changes of the sheet.'),
  text: z.string(),
  at: z.date(),
  by: ActorRef,
});
export type EntryOut = z.infer<typeof Entry>;

export const IncidentDetail = Incident.extend({
  entries: z.array(Entry).describe('Timeline, oldest first.'),
  alarmAckTimeoutS: z.number().int().describe('The guild\'s setting: an alarm not acknowledged within this many seconds is flagged (units[].unacknowledged).'),
});
export const IncidentList = z.object({
  count: z.number().int(),
  incidents: z.array(Incident),
  nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null: this was the last page.'),
});
