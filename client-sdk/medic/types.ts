/**
 * The events of `POST /api/v1/medic/events`, as the game sends them (server: module `medic`).
 * Written by hand for runtimes without the server's zod schemas; the server is the judge of every
 * field (a bad one comes back `rejected` with the field named).
 */
export type BodyPart = 'head' | 'neck' | 'chest' | 'abdomen' | 'pelvis' | 'back' | 'left_arm' | 'right_arm' | 'left_leg' | 'right_leg';
export type InjuryKind = 'gunshot' | 'stab' | 'laceration' | 'fracture' | 'burn' | 'blunt' | 'bite' | 'abrasion' | 'crush' | 'other';
export type EcgRhythm = 'sinus' | 'sinus_tachycardia' | 'sinus_bradycardia' | 'atrial_fibrillation' | 'ventricular_tachycardia'
  | 'ventricular_fibrillation' | 'asystole' | 'pea' | 'stemi' | 'other';

/**
 * Every event: `id` chosen by the game (unique per guild; a resend is a `duplicate`); `at` its game
 * time, epoch milliseconds or an ISO 8601 string (the server answers every time in ISO 8601 UTC).
 */
interface Envelope { id: string; citizenId: string; at: number | string }

export type MedicEvent = Envelope & (
  | { type: 'patient_admitted'; name?: string; reason?: string; location?: string }
  | { type: 'patient_discharged'; note?: string }
  | { type: 'patient_deceased'; cause?: string }
  | { type: 'patient_respawned'; hospital?: string; bill?: number }
  | { type: 'injury_added'; injuryId: string; bodyPart: BodyPart; kind: InjuryKind; severity: 1 | 2 | 3 | 4 | 5 | number; bleeding?: number }
  | { type: 'injury_changed'; injuryId: string; severity?: number; bleeding?: number; state?: 'open' | 'treated' | 'stable' | 'worsened' | 'healed' }
  | { type: 'treatment_applied'; treatment: string; item?: string; injuryId?: string; by: { name: string; citizenId?: string; badge?: string };
      tier: 1 | 2 | 3 | 4 | number; result: 'success' | 'partial' | 'failed'; note?: string }
  | { type: 'vitals'; heartRate?: number; systolic?: number; diastolic?: number; spo2?: number; respRate?: number; temperature?: number; gcs?: number }
  | { type: 'ecg'; rhythm: EcgRhythm; sampleRateHz: number; samples: number[]; lead?: string }
  | { type: 'lab_toxicology'; substances: Record<string, number>; unit?: string }
  | { type: 'imaging'; modality: 'xray' | 'ct'; bodyPart: BodyPart; finding?: string; image: string }
);

export type MedicEventType = MedicEvent['type'];

/** What `enqueue` takes: an event whose `id` (and `at`) the queue fills in when the game has none. */
export type MedicEventInput = MedicEvent extends infer E ? E extends MedicEvent ? Omit<E, 'id' | 'at'> & { id?: string; at?: number | string } : never : never;
