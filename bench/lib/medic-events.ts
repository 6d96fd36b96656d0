/**
 * The event mix of `bench medic`: batches of 100 over `citizens` citizens (default 50), 85 vitals samples, 10 injuries and
 * 5 treatments each (a busy server's stream: vitals every few seconds per patient). Deterministic:
 * batch `b` of `prefix` is the same in every process.
 */
export const BATCH = 100;
const PARTS = ['head', 'chest', 'abdomen', 'left_arm', 'right_arm', 'left_leg', 'right_leg'];
const KINDS = ['gunshot', 'stab', 'laceration', 'fracture', 'burn', 'blunt'];

export type BenchEvent = Record<string, unknown> & { id: string; type: string; citizenId: string; at: number };

export const citizenOf = (prefix: string, c: number) => `${prefix}-c${c}`;

export function benchBatch(prefix: string, b: number, t0: number, citizens: number): BenchEvent[] {
  const out: BenchEvent[] = [];
  for (let k = 0; k < BATCH; k++) {
    const n = b * BATCH + k;
    const base = { id: `${prefix}-${n}`, citizenId: citizenOf(prefix, n % citizens), at: t0 + n };
    if (k % 20 === 7) out.push({ ...base, type: 'treatment_applied', treatment: 'Druckverband', item: 'medic_bandage', by: { name: 'Bench Medic', badge: '07' }, tier: 3, result: 'success' });
    else if (k % 10 === 3) out.push({ ...base, type: 'injury_added', injuryId: `i${n}`, bodyPart: PARTS[n % PARTS.length], kind: KINDS[n % KINDS.length], severity: 1 + (n % 5), bleeding: n % 4 });
    else out.push({ ...base, type: 'vitals', heartRate: 60 + (n % 80), systolic: 90 + (n % 60), diastolic: 55 + (n % 35), spo2: 88 + (n % 12), respRate: 12 + (n % 16), temperature: 36 + (n % 30) / 10, gcs: 3 + (n % 13) });
  }
  return out;
}
