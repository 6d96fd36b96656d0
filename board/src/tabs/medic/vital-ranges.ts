/**
 * Adult reference ranges of the vital signs the game sends, and how far a value lies outside them.
 * `normal` is the resting adult range (HR 60–100 /min, RR 12–20 /min, SpO₂ 95–100 %, systolic
 * 90–139 mmHg, diastolic 60–89 mmHg, 36.1–38.0 °C, GCS 15); `critical` is where an early-warning
 * score (NEWS2) scores 3 or a crisis begins (HR ≤ 40 or ≥ 131, RR ≤ 8 or ≥ 25, SpO₂ ≤ 91 %,
 * systolic ≤ 80 or ≥ 180, diastolic ≤ 40 or ≥ 120, ≤ 35.0 or ≥ 39.1 °C, GCS ≤ 8): act now; in
 * between `abnormal`: look again. Only values outside the normal range are coloured on the board,
 * so a heart rate of 97 reads as plain text.
 */
export type VitalKey = 'heartRate' | 'systolic' | 'diastolic' | 'respRate' | 'spo2' | 'temperature' | 'gcs';
export type VitalLevel = 'normal' | 'abnormal' | 'critical';

interface Range {
  /** Normal from `low` to `high`, both included. */
  low: number; high: number;
  /** Critical at or below `critLow`, at or above `critHigh`. */
  critLow: number; critHigh: number;
}

export const vitalRanges: Record<VitalKey, Range> = {
  heartRate: { low: 60, high: 100, critLow: 40, critHigh: 131 },
  systolic: { low: 90, high: 139, critLow: 80, critHigh: 180 },
  diastolic: { low: 60, high: 89, critLow: 40, critHigh: 120 },
  respRate: { low: 12, high: 20, critLow: 8, critHigh: 25 },
  spo2: { low: 95, high: 100, critLow: 91, critHigh: Infinity },
  temperature: { low: 36.1, high: 38, critLow: 35, critHigh: 39.1 },
  gcs: { low: 15, high: 15, critLow: 8, critHigh: Infinity },
};

/** How a value of `key` stands against the adult ranges. */
export function vitalLevel(key: VitalKey, value: number): VitalLevel {
  const r = vitalRanges[key];
  if (value <= r.critLow || value >= r.critHigh) return 'critical';
  if (value < r.low || value > r.high) return 'abnormal';
  return 'normal';
}

/** Whether the value is below (`low`) or above (`high`) its normal range, or inside it (null). */
export function vitalSide(key: VitalKey, value: number): 'low' | 'high' | null {
  const r = vitalRanges[key];
  return value < r.low ? 'low' : value > r.high ? 'high' : null;
}
