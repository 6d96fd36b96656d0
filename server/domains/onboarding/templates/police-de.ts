import { capabilities } from '../../../../contract/capabilities.ts';
import { twelveHours, type Template } from './types.ts';

const own = ['timeclock.own.use', 'documents.letterhead.view'] as const;
const officer = [...own, 'personal.sheet.view', 'incidents.manage'] as const;
const command = [...officer, 'timeclock.manage', 'dispatch.view', 'dispatch.manage', 'units.manage', 'stats.leaderboard.view'] as const;

/** A German state police service ("Polizeipräsidium Musterstadt"), from the middle to the upper service. */
export const policeDe: Template = {
  id: 'polizei',
  title: { de: 'Polizei', en: 'Police (Germany)' },
  ranks: [
    { id: 'polizeimeister', name: 'Polizeimeister', position: 1, capabilities: own },
    { id: 'polizeiobermeister', name: 'Polizeiobermeister', position: 2, capabilities: [...own, 'personal.sheet.view'] },
    { id: 'polizeihauptmeister', name: 'Polizeihauptmeister', position: 3, capabilities: officer },
    { id: 'polizeikommissar', name: 'Polizeikommissar', position: 4, capabilities: [...officer, 'dispatch.view'] },
    { id: 'polizeioberkommissar', name: 'Polizeioberkommissar', position: 5, capabilities: command },
    { id: 'polizeihauptkommissar', name: 'Polizeihauptkommissar', position: 6, capabilities: [...capabilities] },
  ],
  // The FMS codes of German BOS radio; 7 and 8 in their police meaning.
  statuses: [
    { code: '1', label: 'Einsatzbereit über Funk', color: '#2e7d32', alarm: false, available: true, position: 1 },
    { code: '2', label: 'Einsatzbereit auf Dienststelle', color: '#1b5e20', alarm: false, available: true, position: 2 },
    { code: '3', label: 'Einsatz übernommen', color: '#f9a825', alarm: false, acknowledges: true, position: 3 },
    { code: '4', label: 'Am Einsatzort', color: '#ef6c00', alarm: false, position: 4 },
    { code: '5', label: 'Sprechwunsch', color: '#1565c0', alarm: false, position: 5 },
    { code: '6', label: 'Nicht einsatzbereit', color: '#616161', alarm: false, position: 6 },
    { code: '7', label: 'Person an Bord (Transport)', color: '#6a1b9a', alarm: false, position: 7 },
    { code: '8', label: 'Auf Dienststelle (Vorgangsbearbeitung)', color: '#00838f', alarm: false, position: 8 },
    { code: '0', label: 'Notruf/priorisierter Sprechwunsch', color: '#c62828', alarm: true, position: 9 },
    { code: 'A', label: 'Alarmiert', color: '#d50000', alarm: true, position: 10 },
  ],
  unitTypes: [
    { code: 'FuStW', label: 'Funkstreifenwagen' },
    { code: 'Ziv', label: 'Zivilfahrzeug' },
    { code: 'Krad', label: 'Motorradstreife' },
    { code: 'GruKw', label: 'Gruppenkraftwagen' },
    { code: 'ELW', label: 'Einsatzleitwagen' },
  ],
  keywords: [
    { keyword: 'VU mit Personenschaden', priority: 1, requirements: [{ type: 'FuStW', count: 2 }, { type: 'Krad', count: 1 }] },
    { keyword: 'VU Sachschaden', priority: 3, requirements: [{ type: 'FuStW', count: 1 }] },
    { keyword: 'Ruhestörung', priority: 3, requirements: [{ type: 'FuStW', count: 1 }] },
    { keyword: 'Einbruch', priority: 2, requirements: [{ type: 'FuStW', count: 2 }, { type: 'Ziv', count: 1 }] },
    { keyword: 'Raub', priority: 1, requirements: [{ type: 'FuStW', count: 2 }, { type: 'Ziv', count: 1 }] },
    { keyword: 'Schlägerei', priority: 1, requirements: [{ type: 'FuStW', count: 2 }, { type: 'GruKw', count: 1 }] },
    { keyword: 'Bewaffnete Person', priority: 1, requirements: [{ type: 'FuStW', count: 3 }, { type: 'GruKw', count: 1 }, { type: 'ELW', count: 1 }] },
    { keyword: 'Vermisste Person', priority: 2, requirements: [{ type: 'FuStW', count: 1 }, { type: 'Ziv', count: 1 }] },
    { keyword: 'Verkehrskontrolle', priority: 3, requirements: [{ type: 'Krad', count: 1 }] },
  ],
  units: [
    { callsign: 'Funkstreife 11/1', label: 'Funkstreifenwagen', orgUnit: 'Polizeirevier Mitte', type: 'FuStW' },
    { callsign: 'Funkstreife 11/2', label: 'Funkstreifenwagen', orgUnit: 'Polizeirevier Mitte', type: 'FuStW' },
    { callsign: 'Funkstreife 12/1', label: 'Funkstreifenwagen', orgUnit: 'Polizeirevier Nord', type: 'FuStW' },
    { callsign: 'Zivilstreife 21/1', label: 'Zivilfahrzeug der Kriminalpolizei', orgUnit: 'Kriminalpolizei', type: 'Ziv' },
    { callsign: 'Kradstreife 41/1', label: 'Motorradstreife', orgUnit: 'Verkehrspolizei', type: 'Krad' },
    { callsign: 'Gruppenwagen 51/1', label: 'Gruppenkraftwagen (GruKw)', orgUnit: 'Bereitschaftspolizei', type: 'GruKw' },
    { callsign: 'Leitwagen 1/10', label: 'Einsatzleitwagen', orgUnit: 'Polizeipräsidium', type: 'ELW' },
  ],
  letterheads: [
    {
      name: 'Polizeipräsidium Musterstadt', organisation: 'Polizeipräsidium Musterstadt',
      addressLines: ['Präsidiumsplatz 1', '12345 Musterstadt'],
      primaryColor: '#1f4e8c', secondaryColor: '#2c3e50', footer: 'Notruf 110 · Polizeipräsidium Musterstadt',
    },
  ],
  // No ambulance service: the medic module (hospital and patient events) stays off.
  modules: {
    timeclock: true, dispatch: true, incidents: true, personnel: true, stats: true,
    documents: true, uploads: true, emojis: true, medic: false,
  },
  clock: { timeZone: 'Europe/Berlin', maxShiftMs: twelveHours, minOnDuty: 3 },
};
