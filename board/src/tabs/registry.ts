import type { ComponentType } from 'preact';
import { branding, can, moduleOn } from '../app/session.ts';
import { texts } from '../app/i18n.ts';
import { Overview } from './overview.tsx';
import { lazy, type Lazy } from '../ui/lazy.tsx';
import { showsLetterheads, showsMedic, showsUploads } from './shown.ts';
// The wizard's offer (open Einrichtung for a new guild) is an effect of this module: it must run on
// every board from the start, not only once the setup tab's chunk has loaded.
import './setup/state.ts';

// Übersicht, the tab a board opens on, is part of the first load; every other tab is a chunk of
// its own, fetched the first time it is shown (or pointed at), so the first load stays small.
const ClockTab = lazy(() => import('./clock.tsx').then((m) => m.ClockTab));
const UnitsTab = lazy(() => import('./units.tsx').then((m) => m.UnitsTab));
const DispatchTab = lazy(() => import('./dispatch.tsx').then((m) => m.DispatchTab));
const CallsTab = lazy(() => import('./calls.tsx').then((m) => m.CallsTab));
const IncidentsTab = lazy(() => import('./incidents.tsx').then((m) => m.IncidentsTab));
const StatsTab = lazy(() => import('./stats.tsx').then((m) => m.StatsTab));
const SettingsTab = lazy(() => import('./settings.tsx').then((m) => m.SettingsTab));
const DocumentsTab = lazy(() => import('./documents.tsx').then((m) => m.DocumentsTab));
const SetupTab = lazy(() => import('./setup/setup-tab.tsx').then((m) => m.SetupTab));
const MedicTab = lazy(() => import('./medic.tsx').then((m) => m.MedicTab));
const MapTab = lazy(() => import('./map.tsx').then((m) => m.MapTab));

export type TabId = 'overview' | 'clock' | 'units' | 'dispatch' | 'calls' | 'map' | 'incidents' | 'stats' | 'documents' | 'medic' | 'settings' | 'setup';

/**
 * A board section: `group` is its entry in the guild's `tabOrder` (branding), `shown` its module and
 * rights; `Component.load`, on a tab loaded on first use, fetches its code ahead (hover, focus).
 */
export interface Tab { id: TabId; group: string; Component: ComponentType & { load?: Lazy['load'] }; shown: () => boolean }

export const tabLabels = texts<Record<TabId, string>>(
  { overview: 'Übersicht', clock: 'Stempeluhr', units: 'Einheiten', dispatch: 'Leitstelle', calls: 'Meldungen aus dem Spiel', map: 'Karte', incidents: 'Einsätze', stats: 'Statistik', documents: 'Dokumente', medic: 'Medic', settings: 'Einstellungen', setup: 'Einrichtung' },
  { overview: 'Overview', clock: 'Time clock', units: 'Units', dispatch: 'Dispatch', calls: 'Calls from the game', map: 'Map', incidents: 'Incidents', stats: 'Statistics', documents: 'Documents', medic: 'Medic', settings: 'Settings', setup: 'Setup' },
);

const allTabs: Tab[] = [
  { id: 'overview', group: '', Component: Overview, shown: () => true },
  { id: 'clock', group: 'timeclock', Component: ClockTab, shown: () => moduleOn('timeclock') },
  { id: 'units', group: 'dispatch', Component: UnitsTab, shown: () => moduleOn('dispatch') && (can('dispatch.view') || can('timeclock.own.use')) },
  { id: 'dispatch', group: 'dispatch', Component: DispatchTab, shown: () => moduleOn('dispatch') },
  { id: 'calls', group: 'dispatch', Component: CallsTab, shown: () => moduleOn('dispatch') && can('dispatch.view') },
  { id: 'map', group: 'dispatch', Component: MapTab, shown: () => moduleOn('dispatch') && can('dispatch.view') },
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
