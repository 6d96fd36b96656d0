import { drawn } from '../uploads/images.ts';

/** Builders of valid medic events of every type (contract of issue 20), for the medic tests. */
let n = 0;
export const nextId = (prefix = 'e') => `${prefix}-${process.pid}-${++n}`;
export const now = () => Date.now();

export const xray = () => drawn('png', 64, 48).toString('base64');

/** One valid event of each type for `citizenId` (an injury `inj-1` first, so injury_changed finds it). */
export function everyType(citizenId: string, at = now()) {
  const e = (type: string, fields: object) => ({ id: nextId(type), type, citizenId, at, ...fields });
  return [
    e('patient_admitted', { name: 'Max Muster', reason: 'Verkehrsunfall', location: 'Legion Square' }),
    e('injury_added', { injuryId: 'inj-1', bodyPart: 'chest', kind: 'gunshot', severity: 4, bleeding: 2 }),
    e('injury_changed', { injuryId: 'inj-1', severity: 3, state: 'treated' }),
    e('treatment_applied', { treatment: 'tourniquet', item: 'medic_tourniquet', injuryId: 'inj-1', by: { name: 'Dr. Who', badge: '12' }, tier: 3, result: 'success' }),
    e('vitals', { heartRate: 110, systolic: 95, diastolic: 60, spo2: 93, respRate: 22, temperature: 36.4, gcs: 13 }),
    e('ecg', { rhythm: 'sinus_tachycardia', sampleRateHz: 250, samples: Array.from({ length: 500 }, (_, i) => Math.sin(i / 10)), lead: 'II' }),
    e('lab_toxicology', { substances: { thc: 12.5, ethanol: 0.4 } }),
    e('imaging', { modality: 'xray', bodyPart: 'chest', finding: 'Projektil in Thoraxwand', image: xray() }),
    e('patient_discharged', { note: 'stabil entlassen' }),
  ];
}

export const vital = (citizenId: string, fields: object = { heartRate: 80 }, at = now()) => ({ id: nextId('v'), type: 'vitals', citizenId, at, ...fields });
