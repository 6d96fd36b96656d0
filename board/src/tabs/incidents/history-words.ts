import { texts } from '../../app/i18n.ts';

/** Strings of the Einsätze tab's history search. */
export const historyText = texts({
  title: 'Einsatzhistorie', search: 'Suche', searchPlaceholder: 'Nummer, Stichwort, Adresse, Einheit, Name …', unit: 'Einheit', anyUnit: 'Alle Einheiten',
  from: 'Von', to: 'Bis', reset: 'Zurücksetzen', more: 'Mehr laden', loading: 'Sucht …', none: 'Keine Einsätze gefunden.', noneYet: 'Noch keine Einsätze.',
  failed: 'Suche fehlgeschlagen:', retry: 'Erneut suchen', open: 'offen', closed: 'abgeschlossen', shown: (n: number, more: boolean) => `${n} ${n === 1 ? 'Einsatz' : 'Einsätze'}${more ? ', weitere vorhanden' : ''}`,
  badRange: '„Von“ liegt nach „Bis“.',
}, {
  title: 'Incident history', search: 'Search', searchPlaceholder: 'Number, keyword, address, unit, name …', unit: 'Unit', anyUnit: 'All units',
  from: 'From', to: 'To', reset: 'Reset', more: 'Load more', loading: 'Searching …', none: 'No incidents found.', noneYet: 'No incidents yet.',
  failed: 'Search failed:', retry: 'Search again', open: 'open', closed: 'closed', shown: (n: number, more: boolean) => `${n} ${n === 1 ? 'incident' : 'incidents'}${more ? ', more available' : ''}`,
  badRange: '“From” is after “To”.',
});
