/**
 * The numbers of the medic contract (issue 20) that both sides need: the server's schema and fast
 * path, and the game-side queue (bundled into the SDK's medic entry, so this file imports nothing).
 */

/** Limits of the medic sync. */
export const medicLimits = {
  batch: 500, imageBytes: 5 * 1024 * 1024, bodyBytes: 16 * 1024 * 1024, ecgSamples: 10_000, substances: 50,
  rawRetentionMs: 30 * 24 * 3600_000, earliestAt: Date.UTC(2020, 0, 1), aheadMs: 24 * 3600_000,
} as const;

/** Ids chosen by the game (events, citizens, injuries): 1..maxLength of A-Z a-z 0-9 . _ : - */
export const gameId = { pattern: /^[A-Za-z0-9._:-]+$/, maxLength: 64 } as const;

/** The fields of a vitals sample and their ranges; all but temperature are whole numbers. */
export const vitalRanges = {
  heartRate: { min: 0, max: 300, integer: true },
  systolic: { min: 0, max: 300, integer: true },
  diastolic: { min: 0, max: 200, integer: true },
  spo2: { min: 0, max: 100, integer: true },
  respRate: { min: 0, max: 80, integer: true },
  temperature: { min: 25, max: 45, integer: false },
  gcs: { min: 3, max: 15, integer: true },
} as const;
export type VitalField = keyof typeof vitalRanges;
