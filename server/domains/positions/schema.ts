import { z } from 'zod';
import { positionLimits as L } from '../../../contract/positions.ts';
import { Callsign } from '../units/schema.ts';

const bounded = (what: string, min: number, max: number) =>
  z.number({ error: `${what} must be a number` }).min(min, `${what} must be ${min} to ${max}`).max(max, `${what} must be ${min} to ${max}`);

export const PositionIn = z.strictObject({
  callsign: Callsign,
  x: bounded('x', -L.coordinate, L.coordinate),
  y: bounded('y', -L.coordinate, L.coordinate),
  z: bounded('z', -L.height, L.height).optional().describe('Height; 0 when left out.'),
  heading: bounded('heading', 0, 360).optional().describe('Degrees as GetEntityHeading gives them (0 north, counter-clockwise); 0 when left out.'),
  speed: bounded('speed', 0, L.speed).optional().describe('m/s as GetEntitySpeed gives it; 0 when left out.'),
});

export const PutPositions = z.strictObject({
  positions: z.array(PositionIn).max(L.perRequest, `at most ${L.perRequest} positions per request`),
}).superRefine((body, ctx) => {
  const seen = new Set<string>();
  for (const [i, p] of body.positions.entries()) {
    const key = p.callsign.toLowerCase();
    if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['positions', i, 'callsign'], message: `callsign ${p.callsign} is sent twice; send each unit once per request` });
    seen.add(key);
  }
});

export const PositionsAccepted = z.object({
  accepted: z.number().int().describe('Positions taken.'),
  unknown: z.array(z.string()).describe('Callsigns sent that name no unit of the guild (their positions are dropped): create the unit, or fix the callsign in the resource\'s config.'),
});

export const WatchPositionsInput = z.strictObject({
  intervalMs: z.number().int().min(L.minIntervalMs, `intervalMs must be ${L.minIntervalMs} to ${L.maxIntervalMs}`)
    .max(L.maxIntervalMs, `intervalMs must be ${L.minIntervalMs} to ${L.maxIntervalMs}`).optional()
    .describe(`At most one frame per this many ms (default ${L.intervalMs}).`),
}).optional();
