import type { Postal } from './settings.ts';

export type Found = { kind: 'postal'; postal: Postal } | { kind: 'unit'; callsign: string } | null;

/**
 * What a search means: "PLZ 101" / "postal 101" / "101" finds a postal; anything else a callsign
 * (case and spaces aside: "rtw 1" finds RTW-1 as "rtw-1" does), and failing that a postal of that
 * code (postals like "101A").
 */
export function findOnMap(query: string, postals: readonly Postal[], callsigns: readonly string[]): Found {
  const q = query.trim();
  if (!q) return null;
  const postalQuery = /^(?:plz|postal|post)\s*[:.]?\s*(.+)$/i.exec(q);
  const code = (postalQuery ? postalQuery[1] : q).trim().toLowerCase();
  const postal = () => {
    const p = postals.find((x) => x.code.toLowerCase() === code);
    return p ? ({ kind: 'postal', postal: p } as const) : null;
  };
  if (postalQuery || /^\d+$/.test(q)) return postal();
  const norm = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, '');
  const wanted = norm(q);
  const callsign = callsigns.find((c) => norm(c) === wanted);
  return callsign ? { kind: 'unit', callsign } : postal();
}
