import { texts } from '../../app/i18n.ts';

/** Every string of the map (Karte tab, the panel beside the calls, the picker). */
export const mapText = texts({
  title: 'Karte', search: 'PLZ oder Rufname', searchLabel: 'Auf der Karte suchen (PLZ 101 oder ein Rufname)', go: 'Suchen',
  notFound: (q: string) => `„${q}“ nicht gefunden.`, noPostals: 'Keine PLZ-Liste hinterlegt (Einstellungen → Karte).',
  grid: 'Koordinatengitter (keine Karte hinterlegt)', loading: 'Karte lädt …',
  unit: 'Einheit', call: 'Meldung', incident: 'Einsatz', status: 'Status', crew: 'Besatzung', noCrew: 'Niemand besetzt',
  position: 'Position', age: (s: number) => (s < 60 ? `vor ${s} s` : `vor ${Math.round(s / 60)} min`), stale: 'veraltet', noPosition: 'Keine Position',
  follow: 'Folgen', following: (c: string) => `Folge ${c}`, unfollow: 'Nicht mehr folgen', close: 'Schließen',
  take: 'Übernehmen', taking: 'Übernehme …', alarm: 'Alarmieren', openSheet: 'Einsatz öffnen', alarmed: 'Alarmiert', assigned: 'Zugeteilt', noUnits: 'Keine Einheiten',
  priority: (p: number) => `Priorität ${p}`, postal: (c: string) => `PLZ ${c}`, type: 'Typ', note: 'Hinweis',
  pickTitle: 'Ort auf der Karte wählen', pickHint: 'Tippe auf die Karte, um den Ort zu setzen.', pickCancel: 'Abbrechen', pickButton: 'Auf Karte wählen',
  noStream: 'Positionen aus dem Spiel sind gerade nicht verfügbar.', units: (n: number) => `${n} Einheiten auf der Karte`,
  zoomIn: 'Vergrößern', zoomOut: 'Verkleinern', mapLabel: 'Karte mit Einheiten, Meldungen und Einsätzen',
}, {
  title: 'Map', search: 'Postal or callsign', searchLabel: 'Search the map (postal 101 or a callsign)', go: 'Search',
  notFound: (q: string) => `“${q}” not found.`, noPostals: 'No postal list set (Settings → Map).',
  grid: 'Coordinate grid (no map image set)', loading: 'Loading the map …',
  unit: 'Unit', call: 'Call', incident: 'Incident', status: 'Status', crew: 'Crew', noCrew: 'Nobody aboard',
  position: 'Position', age: (s: number) => (s < 60 ? `${s} s ago` : `${Math.round(s / 60)} min ago`), stale: 'stale', noPosition: 'No position',
  follow: 'Follow', following: (c: string) => `Following ${c}`, unfollow: 'Stop following', close: 'Close',
  take: 'Take', taking: 'Taking …', alarm: 'Alarm', openSheet: 'Open incident', alarmed: 'Alarmed', assigned: 'Assigned', noUnits: 'No units',
  priority: (p: number) => `Priority ${p}`, postal: (c: string) => `Postal ${c}`, type: 'Type', note: 'Note',
  pickTitle: 'Pick the place on the map', pickHint: 'Tap the map to set the place.', pickCancel: 'Cancel', pickButton: 'Pick on map',
  noStream: 'Positions from the game are not available right now.', units: (n: number) => `${n} units on the map`,
  zoomIn: 'Zoom in', zoomOut: 'Zoom out', mapLabel: 'Map with units, calls and incidents',
});
