/** Key scopes of spec §5.7, exactly as written there, plus `units:unit.ingame_position` (issue 31: unit positions from the game). */
export const scopes = [
  'calls:call.report',
  'calls:read',
  'employees:read',
  'ranks:personal.ranks_set',
  'timeclock:shift.ingame_clock',
  'units:unit.ingame_status',
  'facility:queue.ingame_ticket',
  'sessions:ingame.tablet_login',
  'facility:hospital.ingame_read',
  'facility:hospital.ingame_layout',
  'capabilities:read',
  'units:unit.ingame_position',
] as const;
export type Scope = (typeof scopes)[number];

export function isScope(s: string): s is Scope {
  return (scopes as readonly string[]).includes(s);
}
