import { z } from 'zod';
import { plain, text, trimmed } from '../../core/text.ts';
import { callLimits, incidentLimits } from '../../../contract/limits.ts';
import { callTriageLimits, dismissPresets } from '../../../contract/call-triage.ts';


export const ExternalId = z.string({ error: 'externalId must be a string' })
  .min(1, 'externalId must not be empty')
  .max(callLimits.externalId, `externalId has at most ${callLimits.externalId} characters`)
  .regex(/^[A-Za-z0-9._:-]+$/, 'externalId may contain only A-Z a-z 0-9 . _ : -');

export const CallKind = z.enum(['notruf', 'panik', 'alarm', 'hinweis'], { error: 'kind must be one of notruf, panik, alarm, hinweis' });
export const CallStatus = z.enum(['open', 'taken', 'resolved', 'dismissed']);
export const Priority = z.number({ error: 'priority must be an integer from 1 to 3' })
  .int('priority must be an integer from 1 to 3').min(1, 'priority must be 1 (high) to 3 (low)').max(3, 'priority must be 1 (high) to 3 (low)');

const coordinate = (axis: string) => z.number({ error: `${axis} must be a number` })
  .min(-callLimits.coordinate, `${axis} must be at least -${callLimits.coordinate}`)
  .max(callLimits.coordinate, `${axis} must be at most ${callLimits.coordinate}`);

const LocationObject = z.strictObject({
  x: coordinate('x').optional(),
  y: coordinate('y').optional(),
  street: text(callLimits.street, 'street').optional(),
  postal: text(callLimits.postal, 'postal').optional(),
  text: text(callLimits.locationText, 'location text').optional(),
})
  .refine((l) => (l.x === undefined) === (l.y === undefined), 'location needs both x and y, or neither')
  .refine((l) => Object.keys(l).length > 0, 'location needs at least one of x/y, street, postal, text');

/** Where it happened: plain text, or game coordinates and/or an address. Shared with incident sheets. */
export const Location = z.union([text(callLimits.locationText, 'location'), LocationObject], {
  error: 'location must be a string or an object {x, y, street, postal, text}',
}).describe(`Text (at most ${callLimits.locationText}), or {x, y (game coordinates, both or neither, within ±${callLimits.coordinate}), street (≤ ${callLimits.street}), postal (≤ ${callLimits.postal}), text (≤ ${callLimits.locationText})}.`);

const Caller = z.strictObject({
  name: plain('caller name').max(callLimits.callerName, `caller name has at most ${callLimits.callerName} characters`).optional(),
  phone: plain('caller phone').max(callLimits.callerPhone, `caller phone has at most ${callLimits.callerPhone} characters`).optional(),
});

export const ReportCall = z.strictObject({
  externalId: ExternalId.describe('The game\'s id of the call. The same id on an open call, or on a taken call whose incident sheet is open, updates it and increments reportCount.'),
  source: text(callLimits.source, 'source').optional().describe('Name of the reporting script.'),
  kind: CallKind.optional().describe('Default notruf.'),
  priority: Priority.optional().describe('1 high, 2 normal, 3 low. Default 2, or 1 for kind panik.'),
  title: text(callLimits.title, 'title'),
  message: plain('message').max(callLimits.message, `message has at most ${callLimits.message} characters`).optional(),
  location: Location.optional(),
  caller: Caller.optional(),
});
export type ReportCallInput = z.infer<typeof ReportCall>;

export const ResolveCall = z.strictObject({
  externalId: ExternalId,
  resolution: text(callLimits.resolution, 'resolution').describe('How it ended, e.g. "reached".'),
});

export const Keyword = text(incidentLimits.keyword, 'keyword');

export const TakeCall = z.strictObject({
  externalId: ExternalId,
  keyword: Keyword.optional().describe('Keyword of the new incident sheet; default: the call\'s title.'),
});

export const DismissCall = z.strictObject({
  externalId: ExternalId,
  reason: trimmed(callTriageLimits.dismissReason, 'reason', 'reason must be a string (Fehlalarm, Doppelt, Erledigt or your own words)')
    .describe(`${dismissPresets.join(', ')} (any case; stored as written here), or the dispatcher's own words; 1..${callTriageLimits.dismissReason} characters, trimmed.`),
});

/** Incident sheet numbers of the body: a whole number (a JSON number; no string form in a body). */
const SheetNumber = z.number({ error: 'incident must be the number of an open incident sheet' })
  .int('incident must be a whole number').min(1, 'incident must be at least 1').max(2_147_483_647, 'incident is too large');

export const AttachCall = z.strictObject({
  externalId: ExternalId,
  incident: SheetNumber.describe('Number of an open incident sheet of this guild.'),
});

export const MergeCalls = z.strictObject({
  externalIds: z.array(ExternalId, { error: 'externalIds must be an array of externalIds' })
    .min(2, 'externalIds must name at least two calls (take a single call with POST /calls/{externalId}/take)')
    .max(callTriageLimits.mergeCalls, `externalIds names at most ${callTriageLimits.mergeCalls} calls`)
    .refine((ids) => new Set(ids).size === ids.length, 'externalIds must not repeat a call')
    .describe('Open calls; the sheet is made of the first, the others are attached to it in this order.'),
  keyword: Keyword.optional().describe('Keyword of the new sheet; default: the first call\'s title.'),
});

export const ActorRef = z.object({
  kind: z.enum(['session', 'key', 'system']),
  id: z.string().describe('User id for sessions, API key id for keys.'),
  name: z.string().nullable().describe('Nickname (sessions) or API key name (keys) at the time; null only on records of keys deleted before key names were recorded.'),
});

export const LocationOut = z.union([z.string(), z.object({
  x: z.number().optional(), y: z.number().optional(), street: z.string().optional(), postal: z.string().optional(), text: z.string().optional(),
})]);

export const Call = z.object({
  id: z.string().describe('Server id of this call (a re-opened externalId gets a new one).'),
  externalId: z.string(),
  status: CallStatus,
  kind: CallKind,
  priority: z.number().int(),
  title: z.string(),
  message: z.string().nullable(),
  location: LocationOut.nullable(),
  caller: z.object({ name: z.string().optional(), phone: z.string().optional() }).nullable(),
  source: z.string().nullable(),
  reportCount: z.number().int().describe('Reports with this externalId while the call was open, or taken with its incident sheet open.'),
  createdAt: z.date(),
  updatedAt: z.date(),
  takenAt: z.date().nullable(),
  takenBy: ActorRef.nullable(),
  incidentNumber: z.number().int().nullable().describe('The incident sheet made of this call when taken, or the open sheet it was attached to.'),
  attachedAt: z.date().nullable().describe('When a dispatcher attached the call to an existing sheet (incidentNumber) instead of making a sheet of it; null otherwise.'),
  resolvedAt: z.date().nullable(),
  resolution: z.string().nullable(),
  dismissedAt: z.date().nullable().describe('When a dispatcher dismissed the call (status dismissed); null otherwise.'),
  dismissedBy: ActorRef.nullable(),
  dismissReason: z.string().nullable().describe(`Why it was dismissed: one of ${dismissPresets.join(', ')} or the dispatcher's own words.`),
});
export type CallOut = z.infer<typeof Call>;

export const CallList = z.object({ count: z.number().int(), calls: z.array(Call) });

export const CallRateLimit = z.strictObject({
  perMinute: z.number({ error: 'perMinute must be an integer' }).int('perMinute must be an integer').min(1, 'perMinute must be 1 to 6000').max(6000, 'perMinute must be 1 to 6000')
    .describe('Reports a minute each API key (or session) may send on average.'),
  burst: z.number({ error: 'burst must be an integer' }).int('burst must be an integer').min(1, 'burst must be 1 to 1000').max(1000, 'burst must be 1 to 1000')
    .describe('Reports sent at once before the per-minute rate applies.'),
});
export const CallRateLimitOut = z.object({
  perMinute: z.number().int(),
  burst: z.number().int(),
  isDefault: z.boolean().describe('True when the guild never set its own limit.'),
});
