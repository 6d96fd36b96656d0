/**
 * Sizes the server's schemas enforce and the board's forms mirror (maxLength), so a form never
 * lets a person type what the server then refuses. Medic limits: medic-limits.ts.
 */

/** Game calls and the places of incident sheets (beyond spec §8, chosen here). */
export const callLimits = {
  externalId: 80, title: 120, message: 500, callerName: 60, callerPhone: 30, source: 60, resolution: 40,
  locationText: 200, street: 120, postal: 20, coordinate: 100_000, openCalls: 200,
} as const;

/** Incident sheets: the keyword (Einsatzstichwort) and one timeline entry. */
export const incidentLimits = { keyword: 120, entryText: 1000, alarmUnits: 20, searchText: 200 } as const;

/** Letterheads: one-line fields, address lines, the footer. */
export const letterheadLimits = { name: 80, organisation: 120, addressLines: 6, addressLine: 120, footer: 500, footerLines: 4 } as const;

/** "5 MB" of spec §8 read as 5 MiB: 5 × 1024 × 1024 bytes, the largest file POST /uploads stores. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
