import { z } from 'zod';
import { plain, text } from '../../core/text.ts';
import { aaoLimits } from '../../../contract/aao.ts';
import { incidentLimits } from '../../../contract/limits.ts';
import { Priority } from '../calls/schema.ts';

const typeRule = `type must be 1 to ${aaoLimits.typeCode} characters: letters (also ÄÖÜäöüß), digits, space . _ - (no space at either end)`;

/** A unit type's code (RTW, NEF, HLF 20, FuStW …): unique per guild in any case. No `/`: it is a path segment. */
export const UnitTypeCode = z.string({ error: typeRule })
  .regex(new RegExp(`^[A-Za-z0-9ÄÖÜäöüß](?:[A-Za-z0-9ÄÖÜäöüß ._-]{0,${aaoLimits.typeCode - 2}}[A-Za-z0-9ÄÖÜäöüß._-])?$`), typeRule);

// ---- unit types --------------------------------------------------------------------------------

export const UnitType = z.object({
  code: z.string(),
  label: z.string(),
  position: z.number().int(),
  units: z.number().int().describe('How many units of the guild have this type.'),
});
export const UnitTypeList = z.object({ types: z.array(UnitType) });

export const UnitTypeParam = z.strictObject({ code: UnitTypeCode });
export const PutUnitType = z.strictObject({
  code: UnitTypeCode.describe('The type\'s code; an existing code in another case is the same type, respelled.'),
  label: plain('label').trim().max(aaoLimits.typeLabel, `label has at most ${aaoLimits.typeLabel} characters`).optional()
    .describe('What the code stands for (e.g. "Rettungswagen"); omitted: an existing type keeps its label, a new one has none.'),
  position: z.number({ error: 'position must be 0 to 999' }).int('position must be 0 to 999').min(0, 'position must be 0 to 999').max(999, 'position must be 0 to 999').optional()
    .describe('Sort position; new types go last when omitted, existing ones keep theirs.'),
});
export const UnitTypeDeleted = z.object({ deleted: z.literal(true), code: z.string() });

// ---- keywords ----------------------------------------------------------------------------------

const idRule = 'id must be the id of a keyword (digits)';
export const KeywordId = z.string({ error: idRule }).regex(/^[1-9][0-9]{0,17}$/, idRule);

const countRule = `count must be a whole number from 1 to ${aaoLimits.count}`;
export const Requirement = z.strictObject({
  type: UnitTypeCode.describe('A code of GET /admin/unit-types, in any case.'),
  count: z.number({ error: countRule }).int(countRule).min(1, countRule).max(aaoLimits.count, countRule),
});

const Requirements = z.array(Requirement, { error: 'requirements must be an array of {type, count}' })
  .max(aaoLimits.requirements, `requirements has at most ${aaoLimits.requirements} rows`)
  .refine((rows) => new Set(rows.map((r) => r.type.toLowerCase())).size === rows.length, 'requirements must name each type once')
  .refine((rows) => rows.reduce((n, r) => n + r.count, 0) <= aaoLimits.unitsPerKeyword, `requirements ask for at most ${aaoLimits.unitsPerKeyword} units in all (one alarm)`)
  .describe(`What the keyword sends, in this order: {type, count} rows (each type once, at most ${aaoLimits.unitsPerKeyword} units in all).`);

/** The Stichwort as stored: white space collapsed (matching ignores case and white space). */
const KeywordText = text(incidentLimits.keyword, 'keyword').transform((k) => k.replace(/\s+/g, ' ').trim());

export const CreateKeyword = z.strictObject({
  keyword: KeywordText.describe(`Einsatzstichwort (at most ${incidentLimits.keyword} characters), unique in any case; a sheet whose keyword is this one, or starts with it, matches.`),
  priority: Priority.optional().describe('Default priority of sheets with this keyword: 1 high, 2 normal (default), 3 low.'),
  requirements: Requirements.optional(),
});

export const PatchKeyword = z.strictObject({
  id: KeywordId,
  keyword: KeywordText.optional(),
  priority: Priority.optional(),
  requirements: Requirements.optional().describe('Replaces every row.'),
}).refine((p) => p.keyword !== undefined || p.priority !== undefined || p.requirements !== undefined, 'send at least one of keyword, priority, requirements');

export const KeywordParam = z.strictObject({ id: KeywordId });

export const Keyword = z.object({
  id: z.string(),
  keyword: z.string(),
  priority: z.number().int(),
  requirements: z.array(z.object({ type: z.string(), count: z.number().int() })),
  updatedAt: z.date(),
});
export const KeywordList = z.object({ keywords: z.array(Keyword) });
export const KeywordDeleted = z.object({ deleted: z.literal(true), id: z.string(), keyword: z.string() });

// ---- proposal ----------------------------------------------------------------------------------

export const ProposedUnit = z.object({
  callsign: z.string(),
  label: z.string(),
  type: z.string(),
  orgUnit: z.string(),
  status: z.string(),
  crew: z.number().int().describe('How many people occupy it; units nobody occupies come after occupied ones.'),
  distance: z.number().nullable().describe('Distance to the sheet\'s x/y in game units, when both positions are known; else null.'),
  proposed: z.boolean().describe('true: part of the proposal; false: another available unit of a required type, to swap in.'),
});

export const Proposal = z.object({
  number: z.number().int(),
  keyword: z.string().describe('The sheet\'s keyword.'),
  matched: z.object({ id: z.string(), keyword: z.string(), priority: z.number().int() }).nullable()
    .describe('The catalogue keyword the sheet matched; null: none, and nothing is proposed.'),
  priority: z.number().int().nullable().describe('The matched keyword\'s default priority.'),
  requirements: z.array(z.object({
    type: z.string(),
    label: z.string(),
    count: z.number().int(),
    onSheet: z.array(z.string()).describe('Units of this type on the sheet already; they count towards the requirement.'),
    proposed: z.array(z.string()).describe('Callsigns proposed to alarm, best first.'),
    missing: z.number().int().describe('How many more units of this type are needed than are available.'),
  })),
  units: z.array(ProposedUnit).describe('The proposed units in alarm order, then the other available units of the required types.'),
  missing: z.array(z.object({ type: z.string(), label: z.string(), count: z.number().int() }))
    .describe('Types no available unit covers, with how many are missing ("NEF fehlt").'),
});
export type ProposalOut = z.infer<typeof Proposal>;
