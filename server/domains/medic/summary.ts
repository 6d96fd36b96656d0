/** German one-line texts of timeline entries, made when read (the stored event keeps its fields). */
const parts: Record<string, string> = {
  head: 'Kopf', neck: 'Hals', chest: 'Brust', abdomen: 'Bauch', pelvis: 'Becken', back: 'Rücken',
  left_arm: 'linker Arm', right_arm: 'rechter Arm', left_leg: 'linkes Bein', right_leg: 'rechtes Bein',
};
const kinds: Record<string, string> = {
  gunshot: 'Schusswunde', stab: 'Stichwunde', laceration: 'Schnittwunde', fracture: 'Fraktur', burn: 'Verbrennung',
  blunt: 'stumpfes Trauma', bite: 'Bisswunde', abrasion: 'Schürfwunde', crush: 'Quetschung', other: 'sonstige Verletzung',
};
const states: Record<string, string> = { open: 'offen', treated: 'versorgt', stable: 'stabil', worsened: 'verschlechtert', healed: 'verheilt' };
const results: Record<string, string> = { success: 'erfolgreich', partial: 'teilweise erfolgreich', failed: 'erfolglos' };
const rhythms: Record<string, string> = {
  sinus: 'Sinusrhythmus', sinus_tachycardia: 'Sinustachykardie', sinus_bradycardia: 'Sinusbradykardie', atrial_fibrillation: 'Vorhofflimmern',
  ventricular_tachycardia: 'ventrikuläre Tachykardie', ventricular_fibrillation: 'Kammerflimmern', asystole: 'Asystolie',
  pea: 'pulslose elektrische Aktivität', stemi: 'STEMI', other: 'sonstiger Rhythmus',
};
const tail = (s: unknown, sep = ': ') => (typeof s === 'string' && s ? `${sep}${s}` : '');

/** `injuries` (the file's, by id) names the injury an `injury_changed` entry is about. */
export function summaryText(type: string, d: Record<string, any>, injuries?: ReadonlyMap<string, { kind: string; bodyPart: string }>): string {
  switch (type) {
    case 'patient_admitted': return `Patient aufgenommen${d.name ? ` (${d.name})` : ''}${tail(d.reason)}${d.location ? `, Ort: ${d.location}` : ''}`;
    case 'patient_discharged': return `Entlassen${tail(d.note)}`;
    case 'patient_deceased': return `Verstorben${tail(d.cause)}`;
    case 'patient_respawned': return `Im Krankenhaus wieder aufgewacht${d.hospital ? ` (${d.hospital})` : ''}${d.bill !== undefined ? `, Rechnung ${d.bill} $` : ''}`;
    case 'injury_added': return `Verletzung: ${kinds[d.kind] ?? d.kind}, ${parts[d.bodyPart] ?? d.bodyPart}, Schwere ${d.severity}${d.bleeding ? `, Blutung ${d.bleeding}` : ''}`;
    case 'injury_changed': {
      const what = [d.severity !== undefined && `Schwere ${d.severity}`, d.bleeding !== undefined && `Blutung ${d.bleeding}`, d.state && states[d.state]].filter(Boolean);
      const injury = injuries?.get(d.injuryId);
      const which = injury ? `${kinds[injury.kind] ?? injury.kind}, ${parts[injury.bodyPart] ?? injury.bodyPart}` : d.injuryId;
      return `Verletzung (${which}) geändert: ${what.join(', ')}`;
    }
    case 'treatment_applied':
      return `Behandlung: ${d.treatment}${d.item ? ` (${d.item})` : ''} durch ${d.by?.name ?? '?'} (Stufe ${d.tier}): ${results[d.result] ?? d.result}${tail(d.note, ' – ')}`;
    case 'ecg': return `EKG${d.lead ? ` (Ableitung ${d.lead})` : ''}: ${rhythms[d.rhythm] ?? d.rhythm}, ${d.sampleRateHz} Hz${d.sampleCount !== undefined ? `, ${d.sampleCount} Werte` : ''}`;
    case 'lab_toxicology': return `Toxikologie: ${Object.entries(d.substances ?? {}).map(([k, v]) => `${k} ${v} ${d.unit ?? 'ng/mL'}`).join(', ')}`;
    case 'imaging': return `${d.modality === 'ct' ? 'CT' : 'Röntgen'} ${parts[d.bodyPart] ?? d.bodyPart}${tail(d.finding)}`;
    case 'file_closed': return `Akte geschlossen von ${d.by?.name ?? '?'}${tail(d.note)}`;
    default: return type;
  }
}
