/** Rank capabilities. Guild admins pass every capability check. */
export const capabilities = [
  'settings.manage',
  'timeclock.own.use',
  'timeclock.manage',
  'dispatch.view',
  'dispatch.manage',
  'units.manage',
  'incidents.manage',
  'personal.sheet.view',
  'personal.sheet.edit',
  'ranks.manage',
  'stats.leaderboard.view',
  'documents.letterhead.view',
  'documents.letterhead.create',
  'documents.letterhead.edit',
  'documents.letterhead.delete',
  'medic.files.view',
  'medic.files.manage',
] as const;
export type Capability = (typeof capabilities)[number];

export function isCapability(s: string): s is Capability {
  return (capabilities as readonly string[]).includes(s);
}

/**
 * Management capabilities: the ones that hand out rights. `settings.manage` creates API keys,
 * `ranks.manage` writes what ranks carry, `personal.sheet.edit` assigns ranks to people. A rank
 * carrying any of them is a management rank: by default the game may not assign it, nor take it
 * away (PUT /integrations/ingame/ranks), and only guild admins may mark it assignable from the game.
 */
export const managementCapabilities = ['settings.manage', 'ranks.manage', 'personal.sheet.edit'] as const satisfies readonly Capability[];

/** The management capabilities among `capabilities` (empty: not a management rank). */
export function managementOf(capabilities: readonly string[]): Capability[] {
  return managementCapabilities.filter((c) => capabilities.includes(c));
}
