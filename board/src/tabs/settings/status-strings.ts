import { texts } from '../../app/i18n.ts';

export const statusText = texts({
  title: 'Statuskatalog', intro: 'FMS-Status der Einheiten: Beschriftung, Farbe, Reihenfolge. Bei „Alarm“ klingelt es für Einheiten in diesem Status.',
  code: 'Code', label: 'Beschriftung', color: 'Farbe', alarm: 'Alarm', position: 'Reihenfolge',
  save: 'Speichern', reset: 'Verwerfen', delete: 'Löschen', add: 'Status hinzufügen', newTitle: 'Neuer Status',
  saved: (code: string) => `Status ${code} gespeichert.`, added: (code: string) => `Status ${code} angelegt.`,
  deleted: (code: string) => `Status ${code} gelöscht.`, exists: (code: string) => `Status ${code} gibt es schon – ändere ihn oben in der Tabelle.`,
  dispatchOff: 'Der Statuskatalog gehört zum Modul Leitstelle. Schalte es ein, um ihn zu bearbeiten.', loading: 'Lädt …',
  of: (code: string) => `Status ${code}`, positionHint: 'am Ende',
}, {
  title: 'Status catalogue', intro: 'The units\' FMS statuses: label, colour, order. With “Alarm” a unit in this status rings.',
  code: 'Code', label: 'Label', color: 'Colour', alarm: 'Alarm', position: 'Order',
  save: 'Save', reset: 'Discard', delete: 'Delete', add: 'Add status', newTitle: 'New status',
  saved: (code: string) => `Status ${code} saved.`, added: (code: string) => `Status ${code} added.`,
  deleted: (code: string) => `Status ${code} deleted.`, exists: (code: string) => `Status ${code} exists already – change it in the table above.`,
  dispatchOff: 'The status catalogue belongs to the Dispatch module. Switch it on to edit it.', loading: 'Loading …',
  of: (code: string) => `Status ${code}`, positionHint: 'last',
});
