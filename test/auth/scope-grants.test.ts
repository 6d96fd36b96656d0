import t from 'tap';
import type { AnyProcedure } from '@trpc/server';
import { capabilities } from '../../contract/capabilities.ts';
import type { SessionPrincipal } from '../../server/auth/principal.ts';
import { lacksForScope, scopeRequirements } from '../../contract/scope-grants.ts';
import { scopes, type Scope } from '../../contract/scopes.ts';
import { appRouter } from '../../server/trpc/app-router.ts';
import { checkAccess } from '../../server/trpc/init.ts';
import type { Meta } from '../../server/trpc/meta.ts';

// The table of what a key's maker must hold per scope (contract/scope-grants.ts), checked
// against every procedure of the app: a person holding exactly a scope's requirement passes the
// real access check of every route that scope opens. A new route with a scope and a capability
// the table does not ask for fails here, instead of silently letting settings.manage mint a key
// that does more than its maker.

/** Routes that answer only about the calling key itself: nothing a maker could lack. */
const aboutTheKeyItself = new Set(['access.selfCheck']);

const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>)
  .map(([path, p]) => ({ path, meta: p._def.meta as Meta | undefined }));

function personHolding(caps: readonly string[]): SessionPrincipal {
  return {
    kind: 'session', guildId: 'g', userId: 'u', nickname: 'n', isAdmin: false,
    capabilities: new Set(caps), sessionHash: 'h', sessionKind: 'browser',
  };
}

function passes(p: SessionPrincipal, meta: Meta): boolean {
  try {
    checkAccess(p, meta);
    return true;
  } catch {
    return false;
  }
}

const opened = (scope: Scope) => procedures.filter((r) => r.meta?.scopes?.includes(scope) && !r.meta.sessionOnly);

t.test('the table names every scope, and only known capabilities', async (t) => {
  t.same(Object.keys(scopeRequirements).sort(), [...scopes].sort());
  for (const [scope, need] of Object.entries(scopeRequirements)) {
    if (need === 'admin') continue;
    for (const c of need) t.ok((capabilities as readonly string[]).includes(c), `${scope}: ${c} is a capability`);
  }
  t.ok(procedures.length > 100, `${procedures.length} procedures read from the app router`);
  t.ok(opened('calls:read').length >= 1 && opened('timeclock:shift.ingame_clock').length >= 4, 'scoped routes found');
});

t.test('a maker holding a scope\'s requirement may call every route the scope opens', async (t) => {
  for (const scope of scopes) {
    const need = scopeRequirements[scope];
    if (need === 'admin') continue; // guild admins pass every check
    const maker = personHolding(need);
    for (const r of opened(scope)) {
      if (aboutTheKeyItself.has(r.path)) continue;
      t.ok(passes(maker, r.meta!), `${scope} opens ${r.path} (${r.meta!.capability ?? r.meta!.access}); its maker needs ${r.meta!.capability ?? 'admin rights'}, the table asks for ${need.join(', ') || 'nothing'}`);
    }
  }
});

t.test('the table asks for nothing the routes do not need (no scope is refused without reason)', async (t) => {
  for (const scope of scopes) {
    const need = scopeRequirements[scope];
    const routes = opened(scope).filter((r) => !aboutTheKeyItself.has(r.path));
    // Decided in scope-grants.ts where no route of the scope names a capability (facility scopes).
    if (need === 'admin' || !routes.some((r) => r.meta!.capability)) continue;
    const used = new Set(routes.map((r) => r.meta!.capability).filter(Boolean));
    t.same([...need].filter((c) => !used.has(c)), [], `${scope}: every required capability is one a route of it needs`);
  }
});

t.test('lacksForScope: admins lack nothing; others lack what the table asks and they do not hold', async (t) => {
  t.equal(lacksForScope({ isAdmin: true, capabilities: [] }, 'sessions:ingame.tablet_login'), null);
  t.equal(lacksForScope({ isAdmin: false, capabilities: ['settings.manage'] }, 'sessions:ingame.tablet_login'), 'admin');
  t.same(lacksForScope({ isAdmin: false, capabilities: ['personal.sheet.view'] }, 'employees:read'), ['timeclock.manage']);
  t.equal(lacksForScope({ isAdmin: false, capabilities: new Set(['dispatch.view']) }, 'calls:read'), null);
  t.equal(lacksForScope({ isAdmin: false, capabilities: [] }, 'capabilities:read'), null);
});
