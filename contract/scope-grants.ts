import type { Capability } from './capabilities.ts';
import type { Scope } from './scopes.ts';

/**
 * What a person must hold to give a scoped key each scope: a key never does more than the person
 * who made it. `admin`: only guild admins. Besides this, creating a key at all needs
 * `settings.manage` (POST /admin/apikeys). No imports beyond types: the board reads it too.
 *
 * For scopes with routes, the list holds the capability of every route the scope opens (each
 * route's `capability` in its router's meta); test/auth/scope-grants.test.ts derives that from the
 * app router, so a new route cannot silently widen a scope. Decisions where routes do not say it:
 * - `capabilities:read` opens only the self-check, which answers about the calling key itself.
 * - `sessions:ingame.tablet_login` will mint sign-in sessions for members (credentials): admins only.
 * - The facility scopes have no routes yet; they are the in-game hospital's, so they ask for what
 *   the hospital's staff hold: reading it `medic.files.view`, queue tickets (work for the staff)
 *   `medic.files.manage`, placing it `settings.manage` (setting up the guild).
 */
export const scopeRequirements: Readonly<Record<Scope, readonly Capability[] | 'admin'>> = {
  'calls:call.report': ['dispatch.manage'],
  'calls:read': ['dispatch.view'],
  'employees:read': ['personal.sheet.view', 'timeclock.manage'],
  'ranks:personal.ranks_set': ['personal.sheet.edit'],
  'timeclock:shift.ingame_clock': ['timeclock.manage'],
  'units:unit.ingame_status': ['timeclock.own.use', 'dispatch.manage'],
  'facility:queue.ingame_ticket': ['medic.files.manage'],
  'sessions:ingame.tablet_login': 'admin',
  'facility:hospital.ingame_read': ['medic.files.view'],
  'facility:hospital.ingame_layout': ['settings.manage'],
  'capabilities:read': [],
  'units:unit.ingame_position': ['dispatch.manage', 'dispatch.view'],
};

/** The table in words, for the docs: "calls:call.report: dispatch.manage; …; capabilities:read: nothing more". */
export const scopeRequirementsText = Object.entries(scopeRequirements)
  .map(([scope, need]) => `${scope}: ${need === 'admin' ? 'admin rights' : need.length ? need.join(' and ') : 'nothing more'}`).join('; ');

/** Who wants to give scopes: a guild admin (or unscoped key) may give any; others what they hold. */
export interface Granter { isAdmin: boolean; capabilities: Iterable<string> }

/** What `who` lacks to give `scope`: null when nothing, 'admin' for admin-only scopes, else the missing capabilities. */
export function lacksForScope(who: Granter, scope: Scope): Capability[] | 'admin' | null {
  if (who.isAdmin) return null;
  const need = scopeRequirements[scope];
  if (need === 'admin') return 'admin';
  const held = new Set<string>(who.capabilities);
  const missing = need.filter((c) => !held.has(c));
  return missing.length ? missing : null;
}
