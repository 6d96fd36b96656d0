import { capabilities } from '../../../../contract/capabilities.ts';
import { twelveHours, type Template } from './types.ts';

const own = ['timeclock.own.use'] as const;
const crew = [...own, 'personal.sheet.view', 'documents.letterhead.view'] as const;
const dispatcher = [...crew, 'timeclock.manage', 'dispatch.view', 'dispatch.manage', 'incidents.manage', 'stats.leaderboard.view'] as const;

/** Unit types of a German fire and rescue service (the demo guild uses them too). */
export const fireRescueTypes: Template['unitTypes'] = [
  { code: 'ELW', label: 'Einsatzleitwagen' },
  { code: 'HLF', label: 'Hilfeleistungslöschfahrzeug' },
  { code: 'DLK', label: 'Drehleiter mit Korb' },
  { code: 'RTW', label: 'Rettungswagen' },
  { code: 'NEF', label: 'Notarzteinsatzfahrzeug' },
  { code: 'KTW', label: 'Krankentransportwagen' },
];

/**
 * An Alarm- und Ausrückeordnung after common German practice: B = Brand (fire), TH = Technische
 * Hilfe (rescue), RD = Rettungsdienst (ambulance), KTP = Krankentransport, BMA = Brandmeldeanlage.
 */
export const fireRescueKeywords: Template['keywords'] = [
  { keyword: 'RD 1', priority: 2, requirements: [{ type: 'RTW', count: 1 }] },
  { keyword: 'RD 2 NEF', priority: 1, requirements: [{ type: 'RTW', count: 1 }, { type: 'NEF', count: 1 }] },
  { keyword: 'KTP', priority: 3, requirements: [{ type: 'KTW', count: 1 }] },
  { keyword: 'B 1', priority: 2, requirements: [{ type: 'HLF', count: 1 }] },
  { keyword: 'B 2 Wohnung', priority: 1, requirements: [{ type: 'ELW', count: 1 }, { type: 'HLF', count: 2 }, { type: 'DLK', count: 1 }, { type: 'RTW', count: 1 }] },
  { keyword: 'B 3 Menschenleben in Gefahr', priority: 1, requirements: [{ type: 'ELW', count: 1 }, { type: 'HLF', count: 2 }, { type: 'DLK', count: 1 }, { type: 'RTW', count: 2 }, { type: 'NEF', count: 1 }] },
  { keyword: 'BMA', priority: 2, requirements: [{ type: 'ELW', count: 1 }, { type: 'HLF', count: 1 }, { type: 'DLK', count: 1 }] },
  { keyword: 'TH 1', priority: 2, requirements: [{ type: 'HLF', count: 1 }] },
  { keyword: 'TH VU eingeklemmt', priority: 1, requirements: [{ type: 'ELW', count: 1 }, { type: 'HLF', count: 2 }, { type: 'RTW', count: 1 }, { type: 'NEF', count: 1 }] },
];

/** A German fire and rescue service ("Feuerwehr Musterstadt") with its ambulance service. */
export const fireRescueDe: Template = {
  id: 'feuerwehr-rettungsdienst',
  title: { de: 'Feuerwehr und Rettungsdienst', en: 'Fire and rescue service (Germany)' },
  ranks: [
    { id: 'praktikant', name: 'Praktikant', position: 1, capabilities: own },
    { id: 'rettungssanitaeter', name: 'Rettungssanitäter', position: 2, capabilities: [...own, 'personal.sheet.view'] },
    { id: 'notfallsanitaeter', name: 'Notfallsanitäter', position: 3, capabilities: crew },
    { id: 'brandmeister', name: 'Brandmeister', position: 4, capabilities: [...crew, 'dispatch.view', 'incidents.manage'] },
    { id: 'leitstellendisponent', name: 'Leitstellendisponent', position: 5, capabilities: [...dispatcher, 'units.manage'] },
    { id: 'wachleitung', name: 'Wachleitung', position: 6, capabilities: [...capabilities] },
  ],
  statuses: [
    { code: '1', label: 'Einsatzbereit über Funk', color: '#2e7d32', alarm: false, available: true, position: 1 },
    { code: '2', label: 'Einsatzbereit auf Wache', color: '#1b5e20', alarm: false, available: true, position: 2 },
    { code: '3', label: 'Einsatz übernommen', color: '#f9a825', alarm: false, acknowledges: true, position: 3 },
    { code: '4', label: 'Am Einsatzort', color: '#ef6c00', alarm: false, position: 4 },
    { code: '5', label: 'Sprechwunsch', color: '#1565c0', alarm: false, position: 5 },
    { code: '6', label: 'Nicht einsatzbereit', color: '#616161', alarm: false, position: 6 },
    { code: '7', label: 'Patient aufgenommen', color: '#6a1b9a', alarm: false, position: 7 },
    { code: '8', label: 'Am Zielort', color: '#00838f', alarm: false, position: 8 },
    { code: '0', label: 'Notruf/priorisierter Sprechwunsch', color: '#c62828', alarm: true, position: 9 },
    { code: 'A', label: 'Alarmiert', color: '#d50000', alarm: true, position: 10 },
  ],
  unitTypes: fireRescueTypes,
  keywords: fireRescueKeywords,
  // German radio names: Florian = fire brigade; 11 ELW 1, 33 DLK 23/12, 46 HLF 20, 82 NEF, 83 RTW.
  units: [
    { callsign: 'Florian Muster 1/11-1', label: 'Einsatzleitwagen 1 (ELW 1)', orgUnit: 'Feuerwache 1', type: 'ELW' },
    { callsign: 'Florian Muster 1/46-1', label: 'Hilfeleistungslöschfahrzeug 20 (HLF 20)', orgUnit: 'Feuerwache 1', type: 'HLF' },
    { callsign: 'Florian Muster 1/33-1', label: 'Drehleiter 23/12 (DLK)', orgUnit: 'Feuerwache 1', type: 'DLK' },
    { callsign: 'Florian Muster 2/46-1', label: 'Hilfeleistungslöschfahrzeug 20 (HLF 20)', orgUnit: 'Feuerwache 2', type: 'HLF' },
    { callsign: 'Florian Muster 1/82-1', label: 'Notarzteinsatzfahrzeug (NEF)', orgUnit: 'Rettungswache Mitte', type: 'NEF' },
    { callsign: 'Florian Muster 1/83-1', label: 'Rettungswagen (RTW)', orgUnit: 'Rettungswache Mitte', type: 'RTW' },
    { callsign: 'Florian Muster 2/83-1', label: 'Rettungswagen (RTW)', orgUnit: 'Rettungswache Nord', type: 'RTW' },
  ],
  letterheads: [
    {
      name: 'Feuerwehr Musterstadt', organisation: 'Feuerwehr und Rettungsdienst Musterstadt',
      addressLines: ['Feuerwache 1', 'Florianstraße 112', '12345 Musterstadt'],
      primaryColor: '#c0392b', secondaryColor: '#2c3e50', footer: 'Notruf 112 · Integrierte Leitstelle Musterstadt',
    },
    {
      name: 'Rettungsdienst Musterstadt', organisation: 'Rettungsdienst Musterstadt',
      addressLines: ['Rettungswache Mitte', 'Am Krankenhaus 1', '12345 Musterstadt'],
      primaryColor: '#e67e22', secondaryColor: '#2c3e50', footer: 'Notruf 112 · Krankentransport 19222',
    },
  ],
  modules: {
    timeclock: true, dispatch: true, incidents: true, personnel: true, stats: true,
    documents: true, uploads: true, emojis: true, medic: true,
  },
  clock: { timeZone: 'Europe/Berlin', maxShiftMs: twelveHours, minOnDuty: 4 },
};
