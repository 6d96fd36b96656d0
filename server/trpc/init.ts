import { initTRPC } from '@trpc/server';
import superjson from 'superjson';
import { AppError } from '../core/errors.ts';
import type { Principal } from '../auth/principal.ts';
import type { Actor } from '../store/tx.ts';
import type { Context } from './context.ts';
import type { Meta } from './meta.ts';
import { publicMessage } from './errors.ts';

const t = initTRPC.context<Context>().meta<Meta>().create({
  transformer: superjson,
  isServer: true,
  errorFormatter({ shape, error }) {
    const { stack: _stack, ...data } = shape.data;
    return { ...shape, message: publicMessage(error), data };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Public procedures (`access: 'none'`): no credential is read. */
export const publicProcedure = t.procedure;

const authorize = t.middleware(async ({ ctx, meta, type, next }) => {
  if (!meta || meta.access === 'none') throw new AppError('INTERNAL_SERVER_ERROR', 'procedure without access meta');
  const { auth } = ctx;
  if (!auth.principal) {
    throw auth.failure ?? new AppError('UNAUTHORIZED', 'missing credential: send "Authorization: Bearer <API key>" or a session cookie with x-guild-id');
  }
  const p = auth.principal;
  if (p.kind === 'session' && type === 'mutation') {
    if (ctx.facts.crossSite) throw new AppError('FORBIDDEN', 'cross-site request refused');
    if (!ctx.facts.jsonBody) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'requests with a session must send Content-Type: application/json');
  }
  if (meta.module) {
    const mods = ctx.deps.guilds.cachedModules(p.guildId) ?? await ctx.deps.guilds.modules(p.guildId);
    if (!mods || !mods[meta.module]) throw new AppError('NOT_FOUND', `module "${meta.module}" is switched off for this guild`);
  }
  checkAccess(p, meta);
  const actor: Actor = p.kind === 'key' ? { kind: 'key', id: p.keyId } : { kind: 'session', id: p.userId };
  return next({ ctx: { principal: p, guildId: p.guildId, actor } }); // next() merges these into ctx
});

/** Decides 403s from meta alone; see `Meta` for the levels. */
export function checkAccess(p: Principal, meta: Meta): void {
  if (p.kind === 'key') {
    if (meta.sessionOnly) throw new AppError('FORBIDDEN', 'this route needs a signed-in session; API keys are not accepted here');
    if (p.scopes === null) return; // unscoped: full access to its own guild
    if (!meta.scopes?.some((s) => p.scopes!.includes(s))) {
      throw new AppError('FORBIDDEN', meta.scopes?.length
        ? `this API key lacks the scope ${meta.scopes.join(' or ')}`
        : 'scoped API keys cannot use this route');
    }
    return;
  }
  if (p.isAdmin) return;
  if (meta.capability && p.capabilities.has(meta.capability)) return;
  if (meta.capability) throw new AppError('FORBIDDEN', `your rank lacks the capability ${meta.capability}`);
  if (meta.access === 'admin') throw new AppError('FORBIDDEN', 'admin rights needed');
  if (meta.access === 'view') throw new AppError('INTERNAL_SERVER_ERROR', 'view route without capability');
}

/** Procedures of a guild: the caller is authenticated and allowed by the procedure's meta. */
export const guildProcedure = t.procedure.use(authorize);
