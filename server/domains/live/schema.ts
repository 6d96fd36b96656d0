import { z } from 'zod';
import { topics } from '../../../contract/topics.ts';
import { LocationOut } from '../calls/schema.ts';

export const WatchInput = z.strictObject({
  topics: z.array(z.enum(topics)).min(1, 'choose at least one topic').max(topics.length)
    .refine((list) => new Set(list).size === list.length, 'topics must not repeat'),
  lastEventId: z.string().max(64).nullish().describe('Set by the tRPC client on reconnect: the last tracked id it saw.'),
});

export const AlarmState = z.object({
  onDuty: z.boolean().describe('Whether the caller is clocked in.'),
  alarms: z.array(z.string()).describe('Callsigns of all units whose status carries alarm: true.'),
  unit: z.string().nullable().describe('Callsign of the unit the caller occupies (PUT /me/unit), or null: what an alarm limited to the own unit listens for.'),
  unitStatus: z.string().optional().describe('The status code of the unit the caller occupies (what its status buttons show as current); absent without a unit.'),
  incident: z.object({
    number: z.number().int(),
    keyword: z.string(),
    priority: z.number().int().describe('1 high, 2 normal, 3 low.'),
    location: LocationOut.nullable().describe('Text, or { street, postal, text, x, y } as the sheet holds it.'),
    message: z.string().nullable().describe('The game call\'s message, when the sheet was made of one.'),
    alarmedAt: z.date().describe('When the caller\'s unit was alarmed for it.'),
    acknowledgedAt: z.date().nullable().describe('When the caller\'s unit acknowledged the alarm; null: not yet.'),
    units: z.array(z.object({ callsign: z.string(), label: z.string(), alarmedAt: z.date(), acknowledgedAt: z.date().nullable() }))
      .describe('The other units alarmed for the sheet.'),
    entries: z.array(z.object({ kind: z.string(), text: z.string(), at: z.date(), by: z.string().nullable() }))
      .describe('The newest 50 timeline entries, oldest first.'),
  }).nullable().describe('The open incident sheet the caller\'s unit was last alarmed for (POST /incidents/{number}/alarm), until the sheet closes or releases the unit; null otherwise.'),
});
