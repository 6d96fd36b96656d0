import { fireRescueDe } from './templates/fire-de.ts';
import { policeDe } from './templates/police-de.ts';
import type { Template } from './templates/types.ts';

export const templates = { 'feuerwehr-rettungsdienst': fireRescueDe, polizei: policeDe } as const satisfies Record<string, Template>;
export type TemplateId = keyof typeof templates;
export const templateIds = Object.keys(templates) as TemplateId[];
export const defaultTemplate: TemplateId = 'feuerwehr-rettungsdienst';

/**
 * The setup areas, in the order a seed fills them (statuses before units: a new unit starts in a
 * status of the catalogue; the AAO's unit types before units: a new unit gets its type). Dispatcher slots are not among them: a guild has a fixed 20 slots
 * (dispatch/schema.ts MAX_SLOTS) that people on duty take; there is nothing to configure.
 */
export const areas = ['ranks', 'statuses', 'aao', 'units', 'letterheads', 'modules', 'clock'] as const;
export type Area = (typeof areas)[number];

export const areaTitles: Record<Area, { de: string; en: string }> = {
  ranks: { de: 'Dienstgrade und Berechtigungen', en: 'Ranks and capabilities' },
  statuses: { de: 'Fahrzeugstatus (FMS)', en: 'Unit statuses (FMS)' },
  aao: { de: 'Alarm- und Ausrückeordnung (Fahrzeugtypen, Stichwörter)', en: 'Dispatch rules (unit types, keywords)' },
  units: { de: 'Fahrzeuge und Funkrufnamen', en: 'Units and callsigns' },
  letterheads: { de: 'Briefköpfe', en: 'Letterheads' },
  modules: { de: 'Module', en: 'Modules' },
  clock: { de: 'Stempeluhr (Zeitzone, längste Schicht, Mindestbesetzung)', en: 'Time clock (time zone, longest shift, staffing minimum)' },
};

/** When an area counts as empty, for the docs and the seedable answer. */
export const emptyMeans: Record<Area, string> = {
  ranks: 'the guild has no ranks',
  statuses: 'the unit status catalogue has no status',
  aao: 'the guild has no unit types and no keywords',
  units: 'the guild has no units',
  letterheads: 'the guild has no letterheads',
  modules: 'no module switch was ever changed',
  clock: 'no longest shift and no staffing minimum are set',
};

/** What `template` creates in `area`: how many items, and one line of text for each. */
export function planOf(template: Template, area: Area): { count: number; items: string[] } {
  const items = ((): string[] => {
    switch (area) {
      case 'ranks': return template.ranks.map((r) => r.name);
      case 'statuses': return template.statuses.map((s) => `${s.code} ${s.label}${s.alarm ? ' (alarm)' : ''}`);
      case 'aao': return [
        ...template.unitTypes.map((t) => `${t.code} ${t.label}`),
        ...template.keywords.map((k) => `${k.keyword}: ${k.requirements.map((r) => `${r.count} ${r.type}`).join(', ')} (P${k.priority})`),
      ];
      case 'units': return template.units.map((u) => `${u.callsign} (${u.type}, ${u.label}, ${u.orgUnit})`);
      case 'letterheads': return template.letterheads.map((l) => l.name);
      case 'modules': return Object.entries(template.modules).map(([m, on]) => `${m}: ${on ? 'on' : 'off'}`);
      case 'clock': return [
        `timeZone: ${template.clock.timeZone}`,
        `maxShiftMs: ${template.clock.maxShiftMs} (${template.clock.maxShiftMs / 3_600_000} h)`,
        `minOnDuty: ${template.clock.minOnDuty}`,
      ];
    }
  })();
  return { count: items.length, items };
}
