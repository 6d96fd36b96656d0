/**
 * The event mix of `bench medic`: batches of 100 over `citizens` patients at a time (default 50), 85 vitals
 * samples, 10 injuries and 5 treatments each (a busy server's stream: vitals every few seconds per
 * patient). Every `perPatient` events of a citizen slot a new patient takes it (a file is not a lifetime:
 * about 10 % of a patient's events are injuries). Deterministic: batch `b` of `prefix` is the same in
 * every process.
 */
export const BATCH = 100;
const PARTS = ['head', 'chest', 'abdomen', 'left_arm', 'right_arm', 'left_leg', 'right_leg'];
const KINDS = ['gunshot', 'stab', 'laceration', 'fracture', 'burn', 'blunt'];

export type BenchEvent = Record<string, unknown> & { id: string; type: string; citizenId: string; at: number };

export interface Mix { citizens: number; perPatient: number }

/** The citizen id of slot `c` in generation `g`. */
export const citizenOf = (prefix: string, c: number, g: number) => `${prefix}-c${c}g${g}`;

/** Generation of event `n`: a slot gets a new patient every `perPatient` of its events. */
export const generationOf = (n: number, mix: Mix) => Math.floor(n / (mix.citizens * mix.perPatient));

export function benchBatch(prefix: string, b: number, t0: number, mix: Mix): BenchEvent[] {
  const out: BenchEvent[] = [];
  for (let k = 0; k < BATCH; k++) {
    const n = b * BATCH + k;
    const base = { id: `${prefix}-${n}`, citizenId: citizenOf(prefix, n % mix.citizens, generationOf(n, mix)), at: t0 + n };
    if (k % 20 === 7) out.push({ ...base, type: 'treatment_applied', treatment: 'Druckverband', item: 'medic_bandage', by: { name: 'Bench Medic', badge: '07' }, tier: 3, result: 'success' });
    else if (k % 10 === 3) out.push({ ...base, type: 'injury_added', injuryId: `i${n}`, bodyPart: PARTS[n % PARTS.length], kind: KINDS[n % KINDS.length], severity: 1 + (n % 5), bleeding: n % 4 });
    else out.push({ ...base, type: 'vitals', heartRate: 60 + (n % 80), systolic: 90 + (n % 60), diastolic: 55 + (n % 35), spo2: 88 + (n % 12), respRate: 12 + (n % 16), temperature: 36 + (n % 30) / 10, gcs: 3 + (n % 13) });
  }
  return out;
}
