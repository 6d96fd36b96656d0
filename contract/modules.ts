/** Feature modules a guild can switch off; a route of a switched-off module answers 404. All default on. */
export const modules = ['timeclock', 'dispatch', 'incidents', 'personnel', 'stats', 'documents', 'uploads', 'emojis', 'medic'] as const;
export type ModuleName = (typeof modules)[number];

/** Board tabs in their default order. */
export const defaultTabOrder = ['dispatch', 'timeclock', 'incidents', 'personnel', 'stats', 'documents', 'medic', 'settings'];

/** Stored switches merged over the defaults: every known module appears, unknown stored keys do not. */
export function effectiveModules(stored: Record<string, unknown>): Record<ModuleName, boolean> {
  return Object.fromEntries(modules.map((m) => [m, stored[m] !== false])) as Record<ModuleName, boolean>;
}
