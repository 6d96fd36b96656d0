import { initTRPC, type TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { AppError, reasonOf } from '../core/errors.ts';
import type { Principal } from '../auth/principal.ts';
import type { Actor } from '../store/tx.ts';
import type { Context } from './context.ts';
import type { Meta } from './meta.ts';
import { publicMessage } from './errors.ts';
import { databaseUnavailable, isConnectionFailure } from '../store/faults.ts';
import { databaseLost } from '../store/health.ts';

const t = initTRPC.context<Context>().meta<Meta>().create({
  transformer: superjson,
  isServer: true,
  errorFormatter({ shape, error }) {
    const { stack: _stack, ...data } = shape.data;
    const retryAfterS = (error as AppError).retryAfterS;
    // reason (and params): the machine-readable why of contract/errors.ts, as the REST door says it
    return { ...shape, message: publicMessage(error), data: { ...data, ...reasonOf(error), ...(retryAfterS ? { retryAfterS } : {}) } };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * A query that failed for want of a database connection (PostgreSQL down, restarting, the
 * connection lost mid-transaction — also mid-COMMIT, whose outcome the server cannot know) answers
 * 503 with Retry-After on both doors, never 500, and marks the database down (store/health.ts), so
 * the next requests are answered at once until a probe succeeds.
 */
function mapDatabaseFaults<R extends { ok: true } | { ok: false; error: TRPCError }>(ctx: Context, result: R): R {
  if (!result.ok && result.error.code === 'INTERNAL_SERVER_ERROR' && isConnectionFailure(result.error)) throw databaseLost(ctx.deps.dbHealth, result.error);
  return result;
}

/** Every public procedure: database faults become 503 (the ones without a query never see one). */
const databaseFaults = t.middleware(async ({ ctx, next }) => mapDatabaseFaults(ctx, await next()));

/** Public procedures (`access: 'none'`): no credential is read. */
export const publicProcedure = t.procedure.use(databaseFaults);

/**
 * Guild procedures: the database is up (they all use it: while it is down they answer 503 at once,
 * not after a connect timeout), the caller is authenticated and allowed by the procedure's meta,
 * and database faults become 503. One middleware, not three: each costs the hot routes a hop.
 */
const authorize = t.middleware(async ({ ctx, meta, type, next }) => {
  if (!ctx.deps.dbHealth.up) throw databaseUnavailable();
  if (!meta || meta.access === 'none') throw new AppError('INTERNAL_SERVER_ERROR', 'procedure without access meta');
  const { auth } = ctx;
  if (!auth.principal) {
    throw auth.failure ?? new AppError('UNAUTHORIZED', 'missing credential: send "Authorization: Bearer <API key>" or a session cookie with x-guild-id', { reason: 'missing_credential' });
  }
  const p = auth.principal;
  if (p.kind === 'session' && type === 'mutation') {
    if (ctx.facts.crossSite) throw new AppError('FORBIDDEN', 'cross-site request refused', { reason: 'csrf' });
    // A body must say it is JSON (a form's never is); a write without any body has nothing to declare.
    if (!ctx.facts.jsonBody && !ctx.facts.bodyless) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'a request with a session that sends a body must send it as Content-Type: application/json');
  }
  if (meta.module) {
    const mods = ctx.deps.guilds.cachedModules(p.guildId) ?? await ctx.deps.guilds.modules(p.guildId).catch((err) => {
      throw isConnectionFailure(err) ? databaseLost(ctx.deps.dbHealth, err) : err;
    });
    if (!mods || !mods[meta.module]) throw new AppError('NOT_FOUND', `module "${meta.module}" is switched off for this guild`, { reason: 'module_off', params: { module: meta.module } });
  }
  checkAccess(p, meta);
  const actor: Actor = p.kind === 'key' ? { kind: 'key', id: p.keyId } : { kind: 'session', id: p.userId };
  return mapDatabaseFaults(ctx, await next({ ctx: { principal: p, guildId: p.guildId, actor } })); // next() merges these into ctx
});

/** Decides 403s from meta alone; see `Meta` for the levels. */
export function checkAccess(p: Principal, meta: Meta): void {
  if (p.kind === 'key') {
    if (meta.sessionOnly) throw new AppError('FORBIDDEN', 'this route needs a signed-in session; API keys are not accepted here', { reason: 'session_only' });
    if (p.scopes === null) return; // unscoped: full access to its own guild
    if (!meta.scopes?.some((s) => p.scopes!.includes(s))) {
      throw new AppError('FORBIDDEN', meta.scopes?.length
        ? `this API key lacks the scope ${meta.scopes.join(' or ')}`
        : 'scoped API keys cannot use this route', { reason: 'scope_missing', params: { scopes: meta.scopes?.length ? meta.scopes.join(' or ') : undefined } });
    }
    return;
  }
  if (p.sessionKind === 'alarm' && !meta.alarmSession) {
    throw new AppError('FORBIDDEN', 'an alarm session (dispatch-terminal alarm) can only watch alarms; sign in with a browser for the rest', { reason: 'alarm_session_only' });
  }
  if (p.isAdmin) return;
  if (meta.capability && p.capabilities.has(meta.capability)) return;
  if (meta.capability) throw new AppError('FORBIDDEN', `your rank lacks the capability ${meta.capability}`, { reason: 'capability_missing', params: { capability: meta.capability } });
  if (meta.access === 'admin') throw new AppError('FORBIDDEN', 'admin rights needed', { reason: 'admin_required' });
  if (meta.access === 'view') throw new AppError('INTERNAL_SERVER_ERROR', 'view route without capability');
}

/** Procedures of a guild: the database is up, the caller is authenticated and allowed by the procedure's meta. */
export const guildProcedure = t.procedure.use(authorize);
