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
