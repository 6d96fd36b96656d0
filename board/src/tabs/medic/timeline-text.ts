import { decimal, texts } from '../../app/i18n.ts';
import type { Detail } from './types.ts';
import { medicText } from './words.ts';

type Entry = Detail['timeline'][number];
type Words = ReturnType<typeof medicText>;

/** The phrases of timeline lines; the code → label tables come from `medicText`. */
const phrase = texts({
  admitted: 'Patient aufgenommen', place: 'Ort', discharged: 'Entlassen', deceased: 'Verstorben',
  respawned: 'Im Krankenhaus wieder aufgewacht', bill: (n: string) => `Rechnung ${n} $`, injury: 'Verletzung',
  changed: (which: string, what: string) => `Verletzung (${which}) geändert: ${what}`, severity: 'Schwere', bleeding: 'Blutung',
  treatment: 'Behandlung', by: 'durch', tier: 'Stufe', lead: 'Ableitung', values: 'Werte', tox: 'Toxikologie',
  closedBy: (who: string) => `Akte geschlossen von ${who}`,
}, {
  admitted: 'Patient admitted', place: 'place', discharged: 'Discharged', deceased: 'Deceased',
  respawned: 'Woke up in hospital', bill: (n: string) => `bill $${n}`, injury: 'Injury',
  changed: (which: string, what: string) => `Injury (${which}) changed: ${what}`, severity: 'severity', bleeding: 'bleeding',
  treatment: 'Treatment', by: 'by', tier: 'tier', lead: 'lead', values: 'samples', tox: 'Toxicology',
  closedBy: (who: string) => `File closed by ${who}`,
});

const tail = (s: unknown, sep = ': ') => (typeof s === 'string' && s ? `${sep}${s}` : '');
const label = (table: Record<string, string>, code: unknown) => (typeof code === 'string' ? table[code] ?? code : '?');

/**
 * One timeline line in the board's language, made from the entry's type and fields. The server's
 * `summary` (German, for REST readers) stays the answer for a type this board does not know.
 */
export function timelineText(e: Entry, injuries: Detail['injuries']): string {
  const w: Words = medicText();
  const p = phrase();
  const d = e.data as Record<string, any>;
  switch (e.type) {
    case 'patient_admitted': return `${p.admitted}${d.name ? ` (${d.name})` : ''}${tail(d.reason)}${d.location ? `, ${p.place}: ${d.location}` : ''}`;
    case 'patient_discharged': return `${p.discharged}${tail(d.note)}`;
    case 'patient_deceased': return `${p.deceased}${tail(d.cause)}`;
    case 'patient_respawned': return `${p.respawned}${d.hospital ? ` (${d.hospital})` : ''}${d.bill !== undefined ? `, ${p.bill(String(d.bill))}` : ''}`;
    case 'injury_added':
      return `${p.injury}: ${label(w.kind, d.kind)}, ${label(w.bodyPart, d.bodyPart)}, ${p.severity} ${d.severity}${d.bleeding ? `, ${p.bleeding} ${d.bleeding}` : ''}`;
    case 'injury_changed': {
      const what = [d.severity !== undefined && `${p.severity} ${d.severity}`, d.bleeding !== undefined && `${p.bleeding} ${d.bleeding}`,
        d.state && label(w.injuryState, d.state).toLowerCase()].filter(Boolean).join(', ');
      const injury = injuries.find((i) => i.injuryId === d.injuryId);
      return p.changed(injury ? `${label(w.kind, injury.kind)}, ${label(w.bodyPart, injury.bodyPart)}` : String(d.injuryId), what);
    }
    case 'treatment_applied':
      return `${p.treatment}: ${d.treatment}${d.item ? ` (${d.item})` : ''} ${p.by} ${d.by?.name ?? '?'} (${p.tier} ${d.tier}): ${label(w.result, d.result)}${tail(d.note, ' – ')}`;
    case 'ecg':
      return `${w.ecg}${d.lead ? ` (${p.lead} ${d.lead})` : ''}: ${label(w.rhythm, d.rhythm)}, ${d.sampleRateHz} Hz${d.sampleCount !== undefined ? `, ${d.sampleCount} ${p.values}` : ''}`;
    case 'lab_toxicology':
      return `${p.tox}: ${Object.entries(d.substances ?? {}).map(([k, v]) => `${k} ${typeof v === 'number' ? decimal(v, 3) : v} ${d.unit ?? 'ng/mL'}`).join(', ')}`;
    case 'imaging': return `${label(w.modality, d.modality)} ${label(w.bodyPart, d.bodyPart)}${tail(d.finding)}`;
    case 'file_closed': return `${p.closedBy(d.by?.name ?? '?')}${tail(d.note)}`;
    default: return e.summary;
  }
}
