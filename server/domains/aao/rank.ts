import type { ProposalOut } from './schema.ts';

/** A unit of a required type, as the proposal sees it. */
export interface Candidate {
  callsign: string; label: string; type: string; orgUnit: string; status: string; crew: number;
  /** On this sheet already: counts towards its type's requirement, never proposed again. */
  onSheet: boolean;
  /** In a status the catalogue marks available and on no other open sheet. */
  available: boolean;
  /** The unit's last known game position, when one is known. */
  position: { x: number; y: number } | null;
}

const collator = new Intl.Collator('de', { numeric: true, sensitivity: 'base' });

/** Station order: by organisation unit (none last), then callsign, both in natural order ("Wache 2" before "Wache 10"). */
export function stationOrder(a: Candidate, b: Candidate): number {
  if (!a.orgUnit !== !b.orgUnit) return a.orgUnit ? -1 : 1;
  return collator.compare(a.orgUnit, b.orgUnit) || collator.compare(a.callsign, b.callsign);
}

const distanceOf = (c: Candidate, at: { x: number; y: number } | null) =>
  (c.position && at ? Math.hypot(c.position.x - at.x, c.position.y - at.y) : null);

/**
 * The order units are proposed in: occupied units before units nobody occupies (those ring no
 * one), then — when the sheet has x/y — units with a known position, nearest first, then the rest;
 * ties and units without a position in station order.
 */
export function orderCandidates(list: readonly Candidate[], at: { x: number; y: number } | null): Candidate[] {
  return [...list].sort((a, b) => {
    if ((a.crew > 0) !== (b.crew > 0)) return a.crew > 0 ? -1 : 1;
    const da = distanceOf(a, at);
    const db = distanceOf(b, at);
    if ((da === null) !== (db === null)) return da === null ? 1 : -1;
    if (da !== null && db !== null && da !== db) return da - db;
    return stationOrder(a, b);
  });
}

/**
 * Fills each requirement in its order: the units of its type on the sheet count first, then the
 * best available ones make up the rest; what no unit covers is missing. Other available units of
 * the required types follow the proposal (`proposed: false`), for the dispatcher to swap in.
 */
export function buildProposal(
  requirements: readonly { type: string; label: string; count: number }[],
  candidates: readonly Candidate[],
  at: { x: number; y: number } | null,
): Pick<ProposalOut, 'requirements' | 'units' | 'missing'> {
  const ordered = orderCandidates(candidates.filter((c) => c.available && !c.onSheet), at);
  const view = (c: Candidate, proposed: boolean) => {
    const d = distanceOf(c, at);
    return { callsign: c.callsign, label: c.label, type: c.type, orgUnit: c.orgUnit, status: c.status, crew: c.crew, distance: d === null ? null : Math.round(d * 10) / 10, proposed };
  };
  const rows = requirements.map((r) => {
    const onSheet = candidates.filter((c) => c.onSheet && c.type === r.type).map((c) => c.callsign).sort(collator.compare);
    const wanted = Math.max(0, r.count - onSheet.length);
    const picked = ordered.filter((c) => c.type === r.type).slice(0, wanted);
    return { ...r, onSheet, picked, missing: wanted - picked.length };
  });
  const chosen = new Set(rows.flatMap((r) => r.picked.map((c) => c.callsign)));
  const wantedTypes = new Set(requirements.map((r) => r.type));
  return {
    requirements: rows.map((r) => ({ type: r.type, label: r.label, count: r.count, onSheet: r.onSheet, proposed: r.picked.map((c) => c.callsign), missing: r.missing })),
    units: [
      ...rows.flatMap((r) => r.picked.map((c) => view(c, true))),
      ...ordered.filter((c) => wantedTypes.has(c.type) && !chosen.has(c.callsign)).map((c) => view(c, false)),
    ],
    missing: rows.filter((r) => r.missing > 0).map((r) => ({ type: r.type, label: r.label, count: r.missing })),
  };
}
