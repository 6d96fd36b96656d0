/**
 * The medic exports of the dt-medic example, under the same names (`admit`, `injury`, `vitals` …),
 * on the SDK's write-ahead queue (client-sdk/medic): every event is on disk before the export's
 * callback says `ok`, and reaches the patient file in order, once. Switched on by Config.Medic.enabled;
 * the /medic/ routes need an unscoped key.
 */
import { createMedicSync, resolveMedicConfig, type MedicEventInput, type MedicSync } from '../../client-sdk/medic/index.ts';
import { exported, ExportError } from './results.ts';

type Log = (message: string) => void;
type Fn = (...args: any[]) => unknown;

const typed: Record<string, string> = {
  admit: 'patient_admitted', discharge: 'patient_discharged', deceased: 'patient_deceased', respawned: 'patient_respawned',
  injury: 'injury_added', injuryChanged: 'injury_changed', treatment: 'treatment_applied', vitals: 'vitals', ecg: 'ecg', imaging: 'imaging',
};

export interface MedicOptions { baseUrl: string; apiKey: string; dir: string; idPrefix: string; settings: Record<string, unknown>; log: Log }

/** The queue, started once the resource knows its URL and key (main.ts). */
export function startMedic(opts: MedicOptions): MedicSync {
  const cfg = resolveMedicConfig(opts.settings); // throws naming every bad option
  const { dir, ...sync } = cfg.Sync;
  return createMedicSync({
    ...sync, baseUrl: opts.baseUrl || 'http://127.0.0.1:9', apiKey: opts.baseUrl ? opts.apiKey : '',
    dir: `${opts.dir}/${dir}`, idPrefix: opts.idPrefix,
    log: (level, message) => opts.log(`${level === 'info' ? '' : `${level}: `}${message}`),
  });
}

/** The medic exports; `medic()` throws (503) while the queue is off. */
export function medicExports(medic: () => MedicSync, log: Log): Record<string, Fn> {
  const enqueue = (event: unknown) => {
    if (!event || typeof event !== 'object' || Array.isArray(event)) throw new ExportError('a medic event must be a table with type and citizenId');
    const queue = medic();
    try {
      return queue.enqueue(event as MedicEventInput);
    } catch (err) {
      throw new ExportError((err as Error).message);
    }
  };
  const fns: Record<string, Fn> = {
    event: enqueue,
    toxScreen: (citizenId: unknown, substances: unknown, unit: unknown) => enqueue({ type: 'lab_toxicology', citizenId, substances, unit }),
    status: () => ({ ...medic().stats(), message: medic().status().message }),
    flush: (timeoutMs: unknown) => medic().flush(typeof timeoutMs === 'number' ? timeoutMs : 10_000),
  };
  for (const [name, type] of Object.entries(typed)) fns[name] = (citizenId: unknown, fields: unknown) => enqueue({ ...(fields as object), type, citizenId });
  return Object.fromEntries(Object.entries(fns).map(([name, fn]) => [name, exported(name, fn, log)]));
}
