import { texts } from '../../app/i18n.ts';

/** The strings of "Mein Fahrzeug", the crew's view of its own unit, German first. */
export const crewText = texts({
  title: 'Mein Fahrzeug', choose: 'Wähle dein Fahrzeug', chooseHint: 'Tippe auf das Fahrzeug, das du besetzt. Danach setzt du hier seinen Status.',
  loading: 'Fahrzeuge werden geladen …', none: 'Es gibt noch keine Fahrzeuge. Eine Wachleitung legt sie unter Einstellungen an.',
  crew: (n: number) => (n === 0 ? 'unbesetzt' : n === 1 ? '1 Person' : `${n} Personen`), occupy: (c: string) => `${c} besetzen`,
  joined: (c: string) => `Du besetzt jetzt ${c}.`, left: (c: string) => `Du hast ${c} verlassen.`, leave: 'Fahrzeug verlassen',
  current: 'Aktueller Status', status: 'Status setzen', statusSet: (c: string, code: string, label: string) => `${c}: Status ${code} – ${label}.`,
  note: 'Notiz für die Leitstelle (optional, z. B. mit 5 Sprechwunsch)', notePlaceholder: 'Worum geht es?', noteSent: (n: string) => `Notiz gesendet: „${n}“`,
  incident: 'Aktueller Einsatz', noIncident: 'Kein Einsatz. Wenn die Leitstelle dich alarmiert, erscheint er hier.',
  units: 'Einheiten im Einsatz', timeline: 'Verlauf', message: 'Meldung', statusUnknown: 'unbekannt',
  noRight: 'Dein Rang darf keine Einheit besetzen. Frag deine Wachleitung, wenn du auf einem Fahrzeug fahren sollst.',
}, {
  title: 'My vehicle', choose: 'Choose your vehicle', chooseHint: 'Tap the vehicle you are on. Then set its status here.',
  loading: 'Loading vehicles …', none: 'There are no vehicles yet. A station lead adds them under Settings.',
  crew: (n: number) => (n === 0 ? 'unmanned' : n === 1 ? '1 person' : `${n} people`), occupy: (c: string) => `Occupy ${c}`,
  joined: (c: string) => `You now occupy ${c}.`, left: (c: string) => `You left ${c}.`, leave: 'Leave the vehicle',
  current: 'Current status', status: 'Set status', statusSet: (c: string, code: string, label: string) => `${c}: status ${code} – ${label}.`,
  note: 'Note for dispatch (optional, e.g. with 5 request to speak)', notePlaceholder: 'What is it about?', noteSent: (n: string) => `Note sent: “${n}”`,
  incident: 'Current incident', noIncident: 'No incident. When dispatch alarms you, it shows here.',
  units: 'Units on the incident', timeline: 'Timeline', message: 'Report', statusUnknown: 'unknown',
  noRight: 'Your rank may not occupy a unit. Ask your station lead if you are to ride on a vehicle.',
});
