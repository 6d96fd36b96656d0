/**
 * Game side of the medic sync (package entry `./medic`): the write-ahead queue that carries patient
 * events to `POST /api/v1/medic/events`, the typed `Config.Medic` of spec §2, and the event types.
 * Node built-ins only: runs in FiveM's Node 16.
 *
 *   const medic = createMedicSync({ baseUrl, apiKey, dir: GetResourcePath(GetCurrentResourceName()) + '/medic-queue' });
 *   medic.enqueue({ type: 'vitals', citizenId: 'ABC123', heartRate: 92 });   // id and at filled in
 *   on('onResourceStop', (name) => name === GetCurrentResourceName() && medic.stop());
 */
export { createMedicSync } from './sync.ts';
export type { LogFn, MedicSync, MedicSyncOptions, MedicSyncStats, SyncState, SyncStatus } from './sync-api.ts';
export { createIdMaker, ID_PATTERN } from './ids.ts';
export { defaultMedicConfig, minigameEnabled, resolveMedicConfig, tierOfJobGrade } from './config.ts';
export type { AssistLevel, CareTier, DeepPartial, MedicConfig } from './config.ts';
export type { BodyPart, EcgRhythm, InjuryKind, MedicEvent, MedicEventInput, MedicEventType } from './types.ts';
export { Wal } from './wal.ts';
export type { LoadedWal, WalOptions, WalRecord } from './wal.ts';
