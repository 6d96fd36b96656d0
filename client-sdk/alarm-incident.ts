/**
 * The own unit's incident as the terminal alarm client prints and speaks it: the block under the
 * ALARM line (incident, keyword, priority, address, message, units), the announcement, and the
 * lines for what changed since the last state (live updates).
 */
import type { AlarmState } from './router.ts';
import { speakableCallsign } from './alarm-speech.ts';
import type { Words } from './alarm-words.ts';

export type CrewIncident = NonNullable<AlarmState['incident']>;
type Location = CrewIncident['location'];

/** "Hafenstraße 5, 20457, am Kran (x 120, y -340)": street, postal, text, coordinates as known. */
export function addressOf(location: Location): string | null {
  if (location === null) return null;
  if (typeof location === 'string') return location || null;
  const words = [location.street, location.postal, location.text].filter((p) => p && p.trim()).join(', ');
  const at = typeof location.x === 'number' && typeof location.y === 'number' ? `(x ${location.x}, y ${location.y})` : '';
  return [words, at].filter(Boolean).join(' ') || null;
}

/** Where the announcement says the incident is: the street (or the free text), not the coordinates. */
export function placeOf(location: Location): string | null {
  if (location === null) return null;
  if (typeof location === 'string') return location || null;
  return location.street || location.text || null;
}

/** The incident's key: a new alarm of the unit (a new sheet, or alarmed again) has another one. */
export function alarmKey(incident: CrewIncident): string {
  return `${incident.number}@${new Date(incident.alarmedAt).getTime()}`;
}

/** The units line: the own unit first, then the others in the order they were alarmed, acknowledged ones marked. */
function unitsLine(w: Words, unit: string, incident: CrewIncident): string {
  const own = `${unit}${incident.acknowledgedAt ? ` (${w.acknowledged})` : ''}`;
  return [own, ...incident.units.map((u) => `${u.callsign}${u.acknowledgedAt ? ` (${w.acknowledged})` : ''}`)].join(', ');
}

/** The block under the ALARM line, indented. */
export function incidentLines(w: Words, unit: string, incident: CrewIncident): string[] {
  const lines = [`${w.incident(incident.number)} · ${incident.keyword} · ${w.priority(incident.priority)}`];
  const address = addressOf(incident.location);
  if (address) lines.push(`${w.address}: ${address}`);
  if (incident.message) lines.push(`${w.message}: ${incident.message}`);
  lines.push(`${w.units}: ${unitsLine(w, unit, incident)}`);
  return lines;
}

/** The announcement: "Einsatz für RTW 1, Verkehrsunfall, Hafenstraße 5". */
export function spokenText(w: Words, callsigns: string[], incident: CrewIncident | null): string {
  const names = callsigns.map(speakableCallsign);
  const who = names.length > 1 ? `${names.slice(0, -1).join(', ')} ${w.and} ${names.at(-1)}` : names[0] ?? '';
  return w.spoken(who, incident?.keyword ?? null, incident ? placeOf(incident.location) : null);
}

const entryKey = (e: CrewIncident['entries'][number]) => `${new Date(e.at).getTime()}|${e.kind}|${e.text}`;

/** Lines for what changed between two states of the same incident (same number), in words. */
export function incidentChanges(w: Words, before: CrewIncident, after: CrewIncident): string[] {
  const out: string[] = [];
  if (before.keyword !== after.keyword || before.priority !== after.priority) out.push(w.keywordNow(after.keyword, after.priority));
  const address = addressOf(after.location);
  if (address !== addressOf(before.location) && address) out.push(w.addressNow(address));
  if (after.message !== before.message && after.message) out.push(w.messageNow(after.message));
  const had = new Map(before.units.map((u) => [u.callsign, u]));
  for (const u of after.units) {
    const was = had.get(u.callsign);
    if (!was) out.push(w.unitAlarmed(u.callsign));
    else if (u.acknowledgedAt && !was.acknowledgedAt) out.push(w.unitAcknowledged(u.callsign));
  }
  const seen = new Set(before.entries.map(entryKey));
  for (const e of after.entries) {
    // Alarms and acknowledgements are already said above, from the units.
    if (!seen.has(entryKey(e)) && e.kind !== 'unit_alarmed' && e.kind !== 'unit_acknowledged') out.push(w.entry(e.text, e.by));
  }
  return out;
}
