import type { ComponentType } from 'preact';
import { branding, can, moduleOn } from '../app/session.ts';
import { texts } from '../app/i18n.ts';
import { Overview } from './overview.tsx';
import { ClockTab } from './clock.tsx';
import { UnitsTab } from './units.tsx';
import { DispatchTab } from './dispatch.tsx';
import { CallsTab } from './calls.tsx';
import { IncidentsTab } from './incidents.tsx';
import { StatsTab } from './stats.tsx';
import { SettingsTab } from './settings.tsx';
import { DocumentsTab, showsLetterheads, showsUploads } from './documents.tsx';
import { SetupTab } from './setup/setup-tab.tsx';
import { MedicTab, showsMedic } from './medic.tsx';

export type TabId = 'overview' | 'clock' | 'units' | 'dispatch' | 'calls' | 'incidents' | 'stats' | 'documents' | 'medic' | 'settings' | 'setup';

/** A board section: `group` is its entry in the guild's `tabOrder` (branding), `shown` its module and rights. */
export interface Tab { id: TabId; group: string; Component: ComponentType; shown: () => boolean }

export const tabLabels = texts<Record<TabId, string>>(
  { overview: 'Übersicht', clock: 'Stempeluhr', units: 'Einheiten', dispatch: 'Leitstelle', calls: 'Meldungen aus dem Spiel', incidents: 'Einsätze', stats: 'Statistik', documents: 'Dokumente', medic: 'Medic', settings: 'Einstellungen', setup: 'Einrichtung' },
  { overview: 'Overview', clock: 'Time clock', units: 'Units', dispatch: 'Dispatch', calls: 'Calls from the game', incidents: 'Incidents', stats: 'Statistics', documents: 'Documents', medic: 'Medic', settings: 'Settings', setup: 'Setup' },
);

const allTabs: Tab[] = [
  { id: 'overview', group: '', Component: Overview, shown: () => true },
  { id: 'clock', group: 'timeclock', Component: ClockTab, shown: () => moduleOn('timeclock') },
  { id: 'units', group: 'dispatch', Component: UnitsTab, shown: () => moduleOn('dispatch') && (can('dispatch.view') || can('timeclock.own.use')) },
  { id: 'dispatch', group: 'dispatch', Component: DispatchTab, shown: () => moduleOn('dispatch') },
  { id: 'calls', group: 'dispatch', Component: CallsTab, shown: () => moduleOn('dispatch') && can('dispatch.view') },
  { id: 'incidents', group: 'incidents', Component: IncidentsTab, shown: () => moduleOn('incidents') && can('dispatch.view') },
  { id: 'stats', group: 'stats', Component: StatsTab, shown: () => moduleOn('stats') && (can('stats.leaderboard.view') || can('timeclock.own.use')) },
  { id: 'documents', group: 'documents', Component: DocumentsTab, shown: () => showsLetterheads() || showsUploads() },
  { id: 'medic', group: 'medic', Component: MedicTab, shown: showsMedic },
  { id: 'settings', group: 'settings', Component: SettingsTab, shown: () => can('settings.manage') },
  { id: 'setup', group: 'settings', Component: SetupTab, shown: () => can('settings.manage') },
];

/** The tabs to show, Übersicht first, then in the guild's tab order (groups it does not name keep their default place at the end). */
export function visibleTabs(): Tab[] {
  const order = branding.value?.tabOrder ?? [];
  const rank = (t: Tab) => (t.group === '' ? -1 : order.indexOf(t.group) === -1 ? order.length : order.indexOf(t.group));
  return allTabs.filter((t) => t.shown()).sort((a, b) => rank(a) - rank(b) || allTabs.indexOf(a) - allTabs.indexOf(b));
}
