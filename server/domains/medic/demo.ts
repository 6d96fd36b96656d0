import { createCanvas } from '@napi-rs/canvas';
import { createMemoryBus } from '../../hub/bus.ts';
import type { Database } from '../../store/db.ts';
import { ingest } from './ingest.ts';

/**
 * A chest X-ray drawn at `width` × `height` (PNG): dark film, spine, ribs, and the bright projectile
 * the demo's finding names. The demo and the board test send it as a game would.
 */
export function chestXray(width = 160, height = 120): Buffer {
  const c = createCanvas(width, height);
  const g = c.getContext('2d');
  g.scale(width / 160, height / 120); // drawn on a 160 × 120 grid
  g.fillStyle = '#0b0d10';
  g.fillRect(0, 0, 160, 120);
  g.strokeStyle = '#c9ced6';
  g.lineWidth = 3;
  g.beginPath();
  g.moveTo(80, 8);
  g.lineTo(80, 112);
  g.stroke();
  g.lineWidth = 2;
  for (let i = 0; i < 7; i++) {
    const y = 22 + i * 12;
    g.beginPath();
    g.ellipse(80, y + 14, 58 - i * 2, 14, 0, Math.PI * 1.05, Math.PI * 1.95);
    g.stroke();
  }
  g.fillStyle = '#ffffff';
  g.beginPath();
  g.arc(112, 58, 4, 0, Math.PI * 2);
  g.fill();
  return c.toBuffer('image/png');
}

/** `count` samples (mV) of a sinus tachycardia of 120/min at `rateHz`: P wave, QRS and T wave per beat. */
export function sinusTachycardia(count = 1000, rateHz = 250): number[] {
  const beat = rateHz / 2; // samples per beat at 120/min
  const wave = (x: number, at: number, width: number, height: number) => height * Math.exp(-(((x - at) / width) ** 2));
  return Array.from({ length: count }, (_, i) => {
    const x = (i % beat) * (250 / rateHz); // the shape is given in samples at 250 Hz
    const v = wave(x, 20, 5, 0.15) - wave(x, 38, 1.5, 0.12) + wave(x, 41, 1.8, 1.4) - wave(x, 45, 1.8, 0.3) + wave(x, 75, 9, 0.3);
    return Math.round(v * 1000) / 1000;
  });
}

/**
 * The demo's patient: admitted 25 minutes ago after a shooting, two injuries, treatments, vital
 * signs every 10 s over 20 minutes getting better, an ECG strip, a tox screen and a chest X-ray.
 * Sent through the same ingest as the game's events (idempotent ids: seeding twice changes nothing).
 */
function demoPatientEvents(now = Date.now()) {
  const t0 = now - 25 * 60_000;
  const c = 'DEMO-KRANKE-01';
  const at = (min: number) => Math.round(t0 + min * 60_000);
  let n = 0;
  const e = (min: number, type: string, fields: object) => ({ id: `demo-${++n}`, type, citizenId: c, at: at(min), ...fields });
  const by = { name: 'Jonas Krüger', badge: '03' };
  const events: object[] = [
    e(0, 'patient_admitted', { name: 'Kevin Schuster', reason: 'Schussverletzung nach Raubüberfall', location: 'Vinewood Blvd / Ecke Alta St' }),
    e(0.5, 'injury_added', { injuryId: 'gsw-chest', bodyPart: 'chest', kind: 'gunshot', severity: 4, bleeding: 2 }),
    e(0.6, 'injury_added', { injuryId: 'fx-leg', bodyPart: 'left_leg', kind: 'fracture', severity: 3, bleeding: 0 }),
    e(1, 'treatment_applied', { treatment: 'Druckverband', item: 'medic_bandage', injuryId: 'gsw-chest', by, tier: 3, result: 'partial' }),
    e(2, 'treatment_applied', { treatment: 'Sauerstoffgabe', item: 'medic_oxygen', by, tier: 3, result: 'success', note: '10 l/min über Maske' }),
    e(3, 'ecg', { rhythm: 'sinus_tachycardia', sampleRateHz: 250, lead: 'II', samples: sinusTachycardia() }),
    e(4, 'injury_changed', { injuryId: 'gsw-chest', bleeding: 1, state: 'treated' }),
    e(5, 'treatment_applied', { treatment: 'Schienung', item: 'medic_splint', injuryId: 'fx-leg', by: { name: 'Mia Schneider', badge: '04' }, tier: 2, result: 'success' }),
    e(8, 'lab_toxicology', { substances: { THC: 14.2, Benzoylecgonin: 85, Ethanol: 0 }, unit: 'ng/mL' }),
    e(12, 'imaging', { modality: 'xray', bodyPart: 'chest', finding: 'Projektil rechts lateral in der Thoraxwand, kein Pneumothorax', image: chestXray().toString('base64') }),
    e(15, 'injury_changed', { injuryId: 'fx-leg', state: 'stable' }),
  ];
  for (let s = 0; s <= 120; s++) { // every 10 s for 20 minutes, from minute 1
    const k = s / 120; // 0 → 1: the patient stabilises
    const wobble = Math.sin(s / 3);
    events.push(e(1 + s / 6, 'vitals', {
      heartRate: Math.round(128 - 32 * k + 2 * wobble), systolic: Math.round(90 + 28 * k + wobble), diastolic: Math.round(55 + 21 * k),
      spo2: Math.round(88 + 8 * k), respRate: Math.round(26 - 8 * k), temperature: Math.round((36.1 + 0.5 * k) * 10) / 10, gcs: k < 0.3 ? 12 : k < 0.7 ? 13 : 14,
    }));
  }
  return events.sort((a, b) => (a as { at: number }).at - (b as { at: number }).at);
}

export async function seedDemoPatient(db: Database, guildId: string): Promise<number> {
  const bus = createMemoryBus();
  try {
    const res = await ingest({ db, bus }, guildId, demoPatientEvents());
    if (res.rejected) throw new Error(`demo patient: ${res.results.find((r) => r.status === 'rejected')?.error}`);
    return res.applied;
  } finally {
    await bus.close();
  }
}
