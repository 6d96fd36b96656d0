import { texts } from '../../app/i18n.ts';

/** Priorities of calls and sheets: 1 high, 2 normal, 3 low. */
export const priorityText = texts<Record<number, string>>({ 1: 'Hoch', 2: 'Normal', 3: 'Niedrig' }, { 1: 'High', 2: 'Normal', 3: 'Low' });

const kinds = {
  de: { note: 'Notiz', created: 'Angelegt', updated: 'Geändert', unit_assigned: 'Zugewiesen', unit_released: 'Entlassen', closed: 'Abgeschlossen', report: 'Erneute Meldung', resolved: 'Spiel: erledigt', unit_alarmed: 'Alarmiert', unit_acknowledged: 'Quittiert' },
  en: { note: 'Note', created: 'Created', updated: 'Changed', unit_assigned: 'Assigned', unit_released: 'Released', closed: 'Closed', report: 'Reported again', resolved: 'Game: resolved', unit_alarmed: 'Alarmed', unit_acknowledged: 'Acknowledged' },
};

/** Every string of the Einsätze tab. */
export const incidentText = texts({
  title: 'Einsätze', open: 'Offen', closed: 'Abgeschlossen', none: 'Keine offenen Einsätze.', noClosed: 'Noch keine abgeschlossenen Einsätze.',
  loading: 'Lädt …', loadFailed: 'Einsätze konnten nicht geladen werden:', retry: 'Erneut laden',
  newSheet: 'Neues Einsatzblatt', create: 'Anlegen', cancel: 'Abbrechen', created: (n: number) => `Einsatz ${n} angelegt.`,
  sheet: (n: number) => `Einsatz ${n}`, back: 'Alle Einsätze', pick: 'Wähle links einen Einsatz, um ihn zu öffnen.',
  keyword: 'Stichwort', priority: 'Priorität', location: 'Einsatzort', locText: 'Ort / Beschreibung', street: 'Straße', postal: 'PLZ', x: 'X', y: 'Y',
  noLocation: 'Kein Ort', fromCall: 'aus einer Meldung aus dem Spiel', callId: (id: string) => `Kennung im Spiel: ${id}`, by: (name: string) => `von ${name}`,
  createdAt: 'Angelegt', closedAt: 'Abgeschlossen', version: 'Version',
  save: 'Speichern', discard: 'Verwerfen', saved: 'Gespeichert.', nothing: 'Nichts geändert.', badCoords: 'X und Y müssen Zahlen sein.',
  conflict: (who: string | null, time: string | null) => `Zwischenzeitlich geändert: ${who && time ? `${who} hat dieses Einsatzblatt um ${time} gespeichert` : 'jemand anderes hat dieses Einsatzblatt gespeichert'}. Es zeigt jetzt die aktuelle Fassung; deine Änderung wurde nicht übernommen.`,
  yours: 'Deine Eingabe war:', changedMeanwhile: (v: number) => `Dieses Blatt wurde inzwischen geändert (jetzt Version ${v}). Beim Speichern prüft der Server, ob deine Fassung noch aktuell ist.`,
  isClosed: 'Dieser Einsatz ist abgeschlossen und kann nur gelesen werden.',
  units: 'Einheiten', noUnits: 'Keine Einheit zugewiesen.', unit: 'Einheit', assign: 'Zuweisen', release: (c: string) => `${c} entlassen`,
  chooseUnit: 'Einheit wählen …', assigned: (c: string) => `${c} zugewiesen.`, released: (c: string) => `${c} entlassen.`,
  timeline: 'Verlauf', newestFirst: 'neueste zuerst', entry: 'Eintrag', entryPlaceholder: 'Lage, Rückmeldung, Nachforderung … (Enter trägt ein)', add: 'Eintragen', added: 'Eingetragen.',
  noEntries: 'Noch keine Einträge.', close: 'Einsatz abschließen', closeConfirm: 'Wirklich abschließen? Danach kann nichts mehr eingetragen werden.', yesClose: 'Ja, abschließen',
  closedOk: (n: number) => `Einsatz ${n} abgeschlossen.`, readOnly: 'Bearbeiten dürfen Ränge mit dem Recht „Einsätze bearbeiten“.',
  kinds: kinds.de, units_n: (n: number) => (n === 1 ? '1 Einheit' : `${n} Einheiten`),
}, {
  title: 'Incidents', open: 'Open', closed: 'Closed', none: 'No open incidents.', noClosed: 'No closed incidents yet.',
  loading: 'Loading …', loadFailed: 'Incidents could not be loaded:', retry: 'Load again',
  newSheet: 'New incident sheet', create: 'Create', cancel: 'Cancel', created: (n: number) => `Incident ${n} created.`,
  sheet: (n: number) => `Incident ${n}`, back: 'All incidents', pick: 'Choose an incident on the left to open it.',
  keyword: 'Keyword', priority: 'Priority', location: 'Location', locText: 'Place / description', street: 'Street', postal: 'Postal code', x: 'X', y: 'Y',
  noLocation: 'No location', fromCall: 'from a call from the game', callId: (id: string) => `Id in the game: ${id}`, by: (name: string) => `by ${name}`,
  createdAt: 'Created', closedAt: 'Closed', version: 'Version',
  save: 'Save', discard: 'Discard', saved: 'Saved.', nothing: 'Nothing changed.', badCoords: 'X and Y must be numbers.',
  conflict: (who: string | null, time: string | null) => `Changed meanwhile: ${who && time ? `${who} saved this incident sheet at ${time}` : 'someone else saved this incident sheet'}. It now shows the current version; your change was not applied.`,
  yours: 'You had entered:', changedMeanwhile: (v: number) => `This sheet was changed meanwhile (now version ${v}). When you save, the server checks whether your version is still current.`,
  isClosed: 'This incident is closed and can only be read.',
  units: 'Units', noUnits: 'No unit assigned.', unit: 'Unit', assign: 'Assign', release: (c: string) => `Release ${c}`,
  chooseUnit: 'Choose a unit …', assigned: (c: string) => `${c} assigned.`, released: (c: string) => `${c} released.`,
  timeline: 'Timeline', newestFirst: 'newest first', entry: 'Entry', entryPlaceholder: 'Situation, feedback, request … (Enter adds it)', add: 'Add', added: 'Added.',
  noEntries: 'No entries yet.', close: 'Close incident', closeConfirm: 'Close it? Nothing can be added afterwards.', yesClose: 'Yes, close',
  closedOk: (n: number) => `Incident ${n} closed.`, readOnly: 'Ranks with the right to “edit incidents” can edit.',
  kinds: kinds.en, units_n: (n: number) => (n === 1 ? '1 unit' : `${n} units`),
});
