import { capabilities } from '../../../../contract/capabilities.ts';
import { twelveHours, type Template } from './types.ts';

const own = ['timeclock.own.use'] as const;
const crew = [...own, 'personal.sheet.view', 'documents.letterhead.view'] as const;
const dispatcher = [...crew, 'timeclock.manage', 'dispatch.view', 'dispatch.manage', 'incidents.manage', 'stats.leaderboard.view'] as const;

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
    { code: '1', label: 'Einsatzbereit über Funk', color: '#2e7d32', alarm: false, position: 1 },
    { code: '2', label: 'Einsatzbereit auf Wache', color: '#1b5e20', alarm: false, position: 2 },
    { code: '3', label: 'Einsatz übernommen', color: '#f9a825', alarm: false, acknowledges: true, position: 3 },
    { code: '4', label: 'Am Einsatzort', color: '#ef6c00', alarm: false, position: 4 },
    { code: '5', label: 'Sprechwunsch', color: '#1565c0', alarm: false, position: 5 },
    { code: '6', label: 'Nicht einsatzbereit', color: '#616161', alarm: false, position: 6 },
    { code: '7', label: 'Patient aufgenommen', color: '#6a1b9a', alarm: false, position: 7 },
    { code: '8', label: 'Am Zielort', color: '#00838f', alarm: false, position: 8 },
    { code: '0', label: 'Notruf/priorisierter Sprechwunsch', color: '#c62828', alarm: true, position: 9 },
    { code: 'A', label: 'Alarmiert', color: '#d50000', alarm: true, position: 10 },
  ],
  // German radio names: Florian = fire brigade; 11 ELW 1, 33 DLK 23/12, 46 HLF 20, 82 NEF, 83 RTW.
  units: [
    { callsign: 'Florian Muster 1/11-1', label: 'Einsatzleitwagen 1 (ELW 1)', orgUnit: 'Feuerwache 1' },
    { callsign: 'Florian Muster 1/46-1', label: 'Hilfeleistungslöschfahrzeug 20 (HLF 20)', orgUnit: 'Feuerwache 1' },
    { callsign: 'Florian Muster 1/33-1', label: 'Drehleiter 23/12 (DLK)', orgUnit: 'Feuerwache 1' },
    { callsign: 'Florian Muster 2/46-1', label: 'Hilfeleistungslöschfahrzeug 20 (HLF 20)', orgUnit: 'Feuerwache 2' },
    { callsign: 'Florian Muster 1/82-1', label: 'Notarzteinsatzfahrzeug (NEF)', orgUnit: 'Rettungswache Mitte' },
    { callsign: 'Florian Muster 1/83-1', label: 'Rettungswagen (RTW)', orgUnit: 'Rettungswache Mitte' },
    { callsign: 'Florian Muster 2/83-1', label: 'Rettungswagen (RTW)', orgUnit: 'Rettungswache Nord' },
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
