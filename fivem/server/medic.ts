/**
 * The medic exports of the dt-medic example, under the same names (`admit`, `injury`, `vitals` …),
 * on the SDK's write-ahead queue (client-sdk/medic): every event is on disk before the export's
 * callback says `ok`, and reaches the patient file in order, once. Switched on by Config.Medic.enabled;
 * the /medic/ routes need an unscoped key.
 */
import type { Call, ReportCallInput } from '../../client-sdk/game.ts';
import { createMedicSync, resolveMedicConfig, type MedicConfig, type MedicEventInput, type MedicSync } from '../../client-sdk/medic/index.ts';
import { createCareTiers, type CareTiers } from './care-tiers.ts';
import { exported, ExportError } from './results.ts';

type Log = (message: string) => void;
type Fn = (...args: any[]) => unknown;

const typed: Record<string, string> = {
  admit: 'patient_admitted', discharge: 'patient_discharged', deceased: 'patient_deceased', respawned: 'patient_respawned',
  injury: 'injury_added', injuryChanged: 'injury_changed', treatment: 'treatment_applied', vitals: 'vitals', ecg: 'ecg', imaging: 'imaging',
};

export interface MedicOptions { baseUrl: string; apiKey: string; dir: string; idPrefix: string; settings: Record<string, unknown>; log: Log }

/** The queue and the care tiers, started once the resource knows its URL and key (main.ts). */
export interface Medic { sync: MedicSync; tiers: CareTiers; config: MedicConfig; stop(): Promise<void> }

export function startMedic(opts: MedicOptions): Medic {
  const config = resolveMedicConfig(opts.settings); // throws naming every bad option
  const { dir, ...sync } = config.Sync;
  const queue = createMedicSync({
    ...sync, baseUrl: opts.baseUrl, apiKey: opts.apiKey, dir: `${opts.dir}/${dir}`, idPrefix: opts.idPrefix,
    log: (level, message) => opts.log(`${level === 'info' ? '' : `${level}: `}${message}`),
  });
  const tiers = createCareTiers({ baseUrl: opts.baseUrl, apiKey: opts.apiKey, config, log: opts.log });
  return { sync: queue, tiers, config, stop: () => { tiers.stop(); return queue.stop(); } };
}

/** The medic exports; `medic()` throws (503) while the queue is off. */
export function medicExports(medic: () => Medic, reportCall: (call: ReportCallInput) => Promise<Call>, log: Log): Record<string, Fn> {
  const enqueue = (event: unknown) => {
    if (!event || typeof event !== 'object' || Array.isArray(event)) throw new ExportError('a medic event must be a table with type and citizenId');
    const queue = medic().sync;
    try {
      return queue.enqueue(event as MedicEventInput);
    } catch (err) {
      throw new ExportError((err as Error).message);
    }
  };
  const fns: Record<string, Fn> = {
    event: enqueue,
    toxScreen: (citizenId: unknown, substances: unknown, unit: unknown) => enqueue({ type: 'lab_toxicology', citizenId, substances, unit }),
    status: () => ({ ...medic().sync.stats(), message: medic().sync.status().message }),
    flush: (timeoutMs: unknown) => medic().sync.flush(typeof timeoutMs === 'number' ? timeoutMs : 10_000),
    careTier: (who: unknown) => medic().tiers.tierOf(who && typeof who === 'object' ? who : {}),
    /** An emergency call from the ambulance script to the board (Config.Medic.Notruf.toDispatch): `{ id, title, message, location, caller }`. */
    notruf: (call: unknown) => {
      const m = medic();
      if (!m.config.Notruf.toDispatch) throw new ExportError('Config.Medic.Notruf.toDispatch is off', 409, 'conflict');
      const c = (call && typeof call === 'object' ? call : {}) as Record<string, unknown>;
      const { id, ...rest } = c;
      return reportCall({ ...rest, externalId: id, kind: 'notruf', title: typeof c.title === 'string' && c.title ? c.title : 'Notruf' } as ReportCallInput);
    },
  };
  for (const [name, type] of Object.entries(typed)) fns[name] = (citizenId: unknown, fields: unknown) => enqueue({ ...(fields as object), type, citizenId });
  return Object.fromEntries(Object.entries(fns).map(([name, fn]) => [name, exported(name, fn, log)]));
}
