import { z } from 'zod';
import { recordId, RecordIdOut } from '../../core/record-id.ts';
import { plain } from '../../core/text.ts';
import { RankId } from '../ranks/schema.ts';
import { gameId, medicLimits, vitalRanges, type VitalField } from '../../../contract/medic-limits.ts';

export { gameId, medicLimits, vitalRanges, type VitalField } from '../../../contract/medic-limits.ts';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Free text PostgreSQL can store (no NUL, no lone surrogate), at most `max` characters. */
const str = (max: number, min = 0) => z.string().min(min).max(max)
  .refine((s) => !s.includes('\u0000') && !LONE_SURROGATE.test(s), 'must not contain NUL characters or lone surrogates');
export const GameId = z.string().min(1).max(gameId.maxLength).regex(gameId.pattern, 'may contain only A-Z a-z 0-9 . _ : - (1..64 characters)');
const int = (min: number, max: number) => z.number().int().min(min).max(max);

export const bodyParts = ['head', 'neck', 'chest', 'abdomen', 'pelvis', 'back', 'left_arm', 'right_arm', 'left_leg', 'right_leg'] as const;
export const injuryKinds = ['gunshot', 'stab', 'laceration', 'fracture', 'burn', 'blunt', 'bite', 'abrasion', 'crush', 'other'] as const;
export const injuryStates = ['open', 'treated', 'stable', 'worsened', 'healed'] as const;
export const rhythms = ['sinus', 'sinus_tachycardia', 'sinus_bradycardia', 'atrial_fibrillation', 'ventricular_tachycardia',
  'ventricular_fibrillation', 'asystole', 'pea', 'stemi', 'other'] as const;
export const citizenStates = ['ok', 'injured', 'downed', 'dead', 'in_treatment', 'respawning'] as const;
export const outcomes = ['discharged', 'deceased', 'respawned', 'closed'] as const;
const BodyPart = z.enum(bodyParts);
const Severity = int(1, 5).describe('1 minor .. 5 critical.');
const Bleeding = int(0, 3).describe('0 none, 1 light, 2 heavy, 3 arterial.');

const timeRule = 'must be an ISO 8601 time or epoch milliseconds, from 2020-01-01 to 24 h from now';
/** What is wrong with a game time that is neither an ISO 8601 time nor whole epoch milliseconds. */
const timeError = (input: unknown) => input === undefined ? 'is required'
  : typeof input === 'number' ? 'must be whole epoch milliseconds or an ISO 8601 time'
  : typeof input === 'string' ? 'must be an ISO 8601 time (e.g. 2026-11-24T20:15:00.000Z) or epoch milliseconds as a number'
  : timeRule;
/** An ISO 8601 time (with Z or an offset) as epoch milliseconds. */
const isoMs = z.iso.datetime({ offset: true }).transform((s) => Date.parse(s));
/**
 * Game time as sent: an ISO 8601 time (spec: timestamps are ISO 8601 UTC) or, as games have sent
 * it so far, epoch milliseconds; from 2020-01-01 to 24 h from now (checked when parsed). Held as
 * epoch milliseconds inside (the tables' game times are int8 ms).
 */
export const GameTime = z.union([isoMs, z.number().int()], { error: (iss) => timeError(iss.input) })
  .refine((n) => n >= medicLimits.earliestAt && n <= Date.now() + medicLimits.aheadMs, 'must be from 2020-01-01 to 24 h from now')
  .describe('Game time: ISO 8601 (e.g. 2026-11-24T20:15:00.000Z) or epoch milliseconds; 2020-01-01 .. now + 24 h. Answered as ISO 8601 UTC.')
  .meta({ example: '2026-11-24T20:15:00.000Z' }); // documented examples (and the fuzz test's requests) need a time inside the window

/** A time as the medic routes answer it (spec: ISO 8601 in UTC). */
const Time = z.iso.datetime();
/** Epoch milliseconds (the tables' game and server times) as an answer's ISO 8601 UTC time. */
export const isoTime = (ms: number) => new Date(ms).toISOString();

const envelope = {
  id: GameId.describe('Chosen by the game, unique per guild across all types: an id stored before makes the event a duplicate (a retried batch is applied once).'),
  citizenId: GameId.describe('The game\'s citizen id (e.g. QBCore citizenid).'),
  at: GameTime,
};
const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S, description: string) =>
  z.strictObject({ ...envelope, type: z.literal(type), ...shape }).describe(description);

/** A 1×1 PNG: the documented example (and the fuzz test's requests) needs an image the route takes. */
const ONE_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export const vitalFields = Object.keys(vitalRanges) as VitalField[];
const vital = (field: VitalField) => {
  const { min, max, integer } = vitalRanges[field];
  return (integer ? z.number().int() : z.number()).min(min).max(max).optional();
};
const vitalShape = {
  heartRate: vital('heartRate').describe('Beats per minute.'),
  systolic: vital('systolic').describe('mmHg.'),
  diastolic: vital('diastolic').describe('mmHg.'),
  spo2: vital('spo2').describe('Oxygen saturation, %.'),
  respRate: vital('respRate').describe('Breaths per minute.'),
  temperature: vital('temperature').describe('°C.'),
  gcs: vital('gcs').describe('Glasgow Coma Scale.'),
};
const atLeastOne = (fields: readonly string[]) => (v: Record<string, unknown>) => fields.some((f) => v[f] !== undefined);

/** The event types, one zod schema each: strict objects, fields besides the envelope as in the contract. */
export const eventSchemas = {
  patient_admitted: event('patient_admitted', {
    name: str(80).optional(), reason: str(200).optional(), location: str(200).optional(),
  }, 'Opens a patient file for the citizen; an open file is kept and gets the event.'),
  patient_discharged: event('patient_discharged', { note: str(500).optional() },
    'Closes the open file with outcome discharged (no open file: recorded in the citizen\'s timeline only).'),
  patient_deceased: event('patient_deceased', { cause: str(200).optional() }, 'Closes the open file with outcome deceased.'),
  patient_respawned: event('patient_respawned', { hospital: str(80).optional(), bill: int(0, 100_000).optional() },
    'Closes the open file with outcome respawned (the hospital respawn, with its bill).'),
  injury_added: event('injury_added', {
    injuryId: GameId.describe('The game\'s id of the injury within the file; adding it again replaces it.'),
    bodyPart: BodyPart, kind: z.enum(injuryKinds), severity: Severity, bleeding: Bleeding.optional(),
  }, 'An injury of the patient.'),
  injury_changed: event('injury_changed', {
    injuryId: GameId, severity: Severity.optional(), bleeding: Bleeding.optional(), state: z.enum(injuryStates).optional(),
  }, 'Changes an injury of the open file (at least one of severity, bleeding, state); an unknown injuryId is rejected.')
    .refine(atLeastOne(['severity', 'bleeding', 'state']), 'needs at least one of severity, bleeding, state'),
  treatment_applied: event('treatment_applied', {
    treatment: str(60, 1).describe('What was done, e.g. "tourniquet".'),
    item: z.string().max(64).regex(/^medic_[a-z0-9_]+$/, 'must look like medic_<thing> (a-z 0-9 _, at most 64)').optional(),
    injuryId: GameId.optional(),
    by: z.strictObject({ name: str(60, 1), citizenId: GameId.optional(), badge: str(8).optional() }).describe('Who treated.'),
    tier: int(1, 4).describe('Their care tier: 1 first aider, 2 EMT, 3 paramedic, 4 emergency physician.'),
    result: z.enum(['success', 'partial', 'failed']),
    note: str(200).optional(),
  }, 'A treatment, by whom and with which care tier.'),
  vitals: event('vitals', vitalShape, 'One vital-sign sample (at least one field); integers except temperature.')
    .refine(atLeastOne(vitalFields), `needs at least one of ${vitalFields.join(', ')}`),
  ecg: event('ecg', {
    rhythm: z.enum(rhythms),
    sampleRateHz: int(50, 1000),
    samples: z.array(z.number().min(-10).max(10)).min(1).max(medicLimits.ecgSamples).describe('Millivolts, -10..10, 1..10000 values.'),
    lead: str(8).optional().describe('e.g. "II".'),
  }, 'An ECG strip.'),
  lab_toxicology: event('lab_toxicology', {
    substances: z.record(str(40, 1), z.number().min(0).max(1e6))
      .refine((s) => { const n = Object.keys(s).length; return n >= 1 && n <= medicLimits.substances; }, 'needs 1..50 substances')
      .describe('Substance name (1..40 characters) → level (0..1e6).').meta({ example: { ethanol: 420, THC: 12.5 } }),
    unit: str(16, 1).optional().describe('Default "ng/mL".'),
  }, 'A blood draw\'s toxicology: the level of each substance.'),
  imaging: event('imaging', {
    modality: z.enum(['xray', 'ct']), bodyPart: BodyPart, finding: str(500).optional(),
    image: z.string().min(1).describe('Base64 or a data:image/...;base64, URI of a PNG, JPEG or WebP, decoded at most 5 MiB (over: 413 for this event; another type: 415).').meta({ contentEncoding: 'base64', example: ONE_PIXEL_PNG }),
  }, 'An X-ray or CT result; the image is attached to the patient file.'),
} as const;
export type EventType = keyof typeof eventSchemas;
export const eventTypes = Object.keys(eventSchemas) as EventType[];
export type MedicEvent = { [K in EventType]: z.infer<(typeof eventSchemas)[K]> }[EventType];
export const closingTypes = { patient_discharged: 'discharged', patient_deceased: 'deceased', patient_respawned: 'respawned' } as const;

const jsonOf = (s: z.ZodType) => {
  const out = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
};

/**
 * The body of POST /medic/events. Each event is checked on its own by the service (a bad one is
 * rejected alone, the others applied), so the schema takes any value per entry; the docs show the
 * event types (oneOf) from the same zod schemas.
 */
export const EventBatch = z.strictObject({
  events: z.array(z.unknown().meta({ oneOf: eventTypes.map((t) => jsonOf(eventSchemas[t])), description: 'One event; its `type` selects its fields.' }))
    .min(1, 'events needs 1..500 events').max(medicLimits.batch, 'events has at most 500 events'),
});

export const EventResult = z.object({
  id: z.string().nullable().describe('The event\'s id as sent; null when it was not a valid id.'),
  index: z.number().int().describe('Position in the batch.'),
  status: z.enum(['applied', 'duplicate', 'rejected']).describe('applied: stored now; duplicate: stored before (nothing changed); rejected: see code and error.'),
  code: z.union([z.literal(400), z.literal(413), z.literal(415)]).optional().describe('400 bad or unknown type or fields, 413 image over 5 MiB, 415 image not PNG/JPEG/WebP.'),
  error: z.string().optional().describe('Names the field, e.g. "events[2].heartRate must be at most 300".'),
});
export const IngestResult = z.object({
  results: z.array(EventResult).describe('One per event, in order.'),
  applied: z.number().int(), duplicates: z.number().int(), rejected: z.number().int(),
});
export type EventResult = z.infer<typeof EventResult>;

export const Position = z.strictObject({
  x: z.number().min(-100_000).max(100_000), y: z.number().min(-100_000).max(100_000), z: z.number().min(-100_000).max(100_000),
});
export const StateInput = z.strictObject({
  id: GameId.describe('The citizen id.'),
  at: GameTime,
  state: z.enum(citizenStates),
  health: int(0, 200).optional(),
  armor: int(0, 100).optional(),
  conscious: z.boolean().optional(),
  bleeding: Bleeding.optional(),
  position: Position.optional(),
  name: str(80).optional(),
});
export type StateInput = z.infer<typeof StateInput>;

export const CitizenState = z.object({
  citizenId: z.string(), at: Time.describe('Game time.'), state: z.enum(citizenStates),
  health: z.number().int().nullable(), armor: z.number().int().nullable(), conscious: z.boolean().nullable(),
  bleeding: z.number().int().nullable(), position: z.object({ x: z.number(), y: z.number(), z: z.number() }).nullable(),
  name: z.string().nullable(), updatedAt: Time.describe('Server time of the write.'),
});
export type CitizenState = z.infer<typeof CitizenState>;
export const StateResult = z.object({
  applied: z.boolean().describe('false: the stored state is as new or newer (by game time); it is kept.'),
  reason: z.string().optional(),
  state: CitizenState.describe('The state stored now.'),
});

export const Vitals = z.object({
  at: Time,
  heartRate: z.number().nullable(), systolic: z.number().nullable(), diastolic: z.number().nullable(), spo2: z.number().nullable(),
  respRate: z.number().nullable(), temperature: z.number().nullable(), gcs: z.number().nullable(),
});
export type Vitals = z.infer<typeof Vitals>;
export const VitalSeries = z.object({
  points: z.array(Vitals).describe('Oldest first.'),
  downsampled: z.boolean().describe('true: points are means of buckets (more samples than maxPoints, or samples older than 30 days).'),
  count: z.number().int().describe('Stored samples in the range.'),
});
export type VitalSeries = z.infer<typeof VitalSeries>;

export const PatientSummary = z.object({
  fileId: RecordIdOut, citizenId: z.string(), name: z.string().nullable(),
  status: z.enum(['open', 'closed']), outcome: z.enum(outcomes).nullable(),
  openedAt: Time, closedAt: Time.nullable(), lastEventAt: Time.describe('Newest game time of its events.'),
  state: CitizenState.nullable(), injuries: z.number().int().describe('Injuries not healed.'), lastVitals: Vitals.nullable(),
});
export type PatientSummary = z.infer<typeof PatientSummary>;

export const Injury = z.object({
  injuryId: z.string(), bodyPart: z.enum(bodyParts), kind: z.enum(injuryKinds), severity: z.number().int(), bleeding: z.number().int(),
  state: z.enum(injuryStates), addedAt: Time, changedAt: Time,
});
export const TimelineEntry = z.object({
  eventId: z.string(), type: z.string(), at: Time, receivedAt: Time,
  summary: z.string().describe('German text for people.'),
  data: z.record(z.string(), z.unknown()).describe('The event\'s fields besides the envelope (ECG samples and image bytes left out).'),
});
export const Treatment = z.object({
  eventId: z.string(), at: Time, treatment: z.string(), item: z.string().nullable(), injuryId: z.string().nullable(),
  by: z.object({ name: z.string(), citizenId: z.string().optional(), badge: z.string().optional() }),
  tier: z.number().int(), result: z.enum(['success', 'partial', 'failed']), note: z.string().nullable(),
});
export const Ecg = z.object({
  eventId: z.string(), at: Time, rhythm: z.enum(rhythms), sampleRateHz: z.number().int(), lead: z.string().nullable(), samples: z.array(z.number()),
});
export const Lab = z.object({ eventId: z.string(), at: Time, unit: z.string(), substances: z.record(z.string(), z.number()) });
export const Image = z.object({
  id: RecordIdOut, eventId: z.string(), at: Time, modality: z.enum(['xray', 'ct']), bodyPart: z.enum(bodyParts),
  finding: z.string().nullable(), contentType: z.enum(['image/png', 'image/jpeg', 'image/webp']), width: z.number().int(), height: z.number().int(),
  url: z.string().describe('`/api/v1/medic/images/{id}?guild={guildId}`, usable in an <img src> by a signed-in browser.'),
});
export const PatientDetail = PatientSummary.extend({
  injuries: z.array(Injury).describe('Its injuries as they stand (healed ones included).'),
  timeline: z.array(TimelineEntry).describe('Every event but vital samples, oldest first.'),
  treatments: z.array(Treatment), vitals: VitalSeries, ecg: z.array(Ecg).describe('Newest 10, newest first.'),
  labs: z.array(Lab), images: z.array(Image),
});
export type PatientDetail = z.infer<typeof PatientDetail>;

/** A query time: ISO 8601, or epoch milliseconds as a number or digits. */
const QueryTime = (what: string) => z.union([
  isoMs, z.number().int().min(0), z.string().regex(/^[0-9]{1,15}$/).transform(Number),
], { error: `${what} must be an ISO 8601 time or epoch milliseconds` }).pipe(z.number().int().min(0));

export const PatientQuery = z.strictObject({
  q: plain('q').max(64, 'q has at most 64 characters').optional().describe('Citizen id prefix or name (case-insensitive substring).'),
  status: z.enum(['open', 'closed', 'all']).optional().describe('Default open.'),
  limit: z.union([z.number(), z.string().regex(/^[0-9]{1,4}$/).transform(Number)]).pipe(z.number().int().min(1).max(200)).optional().describe('1..200, default 50.'),
  before: recordId('before').optional().describe('nextBefore of the previous page.'),
}).optional();
export const PatientList = z.object({ patients: z.array(PatientSummary).describe('Newest activity first.'), nextBefore: RecordIdOut.nullable() });
export const FileParams = z.strictObject({ fileId: recordId('fileId') });
export const VitalsQuery = z.strictObject({
  fileId: recordId('fileId'),
  from: QueryTime('from').optional().describe('Game time: ISO 8601 or epoch ms.'),
  to: QueryTime('to').optional().describe('Game time: ISO 8601 or epoch ms.'),
  maxPoints: z.union([z.number(), z.string().regex(/^[0-9]{1,5}$/).transform(Number)]).pipe(z.number().int().min(10).max(2000)).optional().describe('10..2000, default 500.'),
});
export const CloseInput = z.strictObject({ fileId: recordId('fileId'), note: str(500).optional() });
export const ImageParams = z.strictObject({
  id: recordId('id'),
  guild: z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, 'guild is not a valid guild id').optional()
    .describe('The guild, for a session without the x-guild-id header (an <img src>).'),
});
export const ImageFile = z.object({ contentType: z.string(), base64: z.string(), filename: z.string() });

export const TierEntry = z.object({ rankId: z.string(), rankName: z.string(), tier: z.number().int() });
export const Qualifications = z.object({
  tiers: z.array(z.object({
    userId: z.string(), badgeNumber: z.string().nullable(), nickname: z.string(), rankId: z.string(), rankName: z.string(), tier: z.number().int(),
  })).describe('Each person whose rank has a tier.'),
  mapping: z.array(TierEntry),
});
export const TierMapping = z.object({ mapping: z.array(TierEntry) });
export const SetTiers = z.strictObject({
  mapping: z.array(z.strictObject({ rankId: RankId, tier: int(1, 4) })).max(200).describe('Replaces the whole mapping.'),
});
