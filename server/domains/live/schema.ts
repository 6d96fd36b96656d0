import { z } from 'zod';
import { topics } from '../../../contract/topics.ts';

export const WatchInput = z.strictObject({
  topics: z.array(z.enum(topics)).min(1, 'choose at least one topic').max(topics.length)
    .refine((list) => new Set(list).size === list.length, 'topics must not repeat'),
  lastEventId: z.string().max(64).nullish().describe('Set by the tRPC client on reconnect: the last tracked id it saw.'),
});

export const AlarmState = z.object({
  onDuty: z.boolean().describe('Whether the caller is clocked in.'),
  alarms: z.array(z.string()).describe('Callsigns of all units whose status carries alarm: true.'),
  unit: z.string().nullable().describe('Callsign of the unit the caller occupies (PUT /me/unit), or null: what an alarm limited to the own unit listens for.'),
});
