import type { AnyProcedure } from '@trpc/server';
import { AppError } from '../../core/errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { checkAccess } from '../../trpc/init.ts';
import type { Meta } from '../../trpc/meta.ts';
import type { LiveView } from '../../hub/frames.ts';
import { overviewCounters, type OverviewCounter, type Topic } from '../../../contract/topics.ts';
import type { ModuleName } from '../../../contract/modules.ts';
import { accessRouter } from '../access/router.ts';
import { callsRouter } from '../calls/router.ts';
import { dispatchRouter } from '../dispatch/router.ts';
import { emojisRouter } from '../emojis/router.ts';
import { incidentsRouter } from '../incidents/router.ts';
import { letterheadsRouter } from '../letterheads/router.ts';
import { medicRouter } from '../medic/router.ts';
import { timeclockRouter } from '../timeclock/router.ts';
import { unitsRouter } from '../units/router.ts';

interface Read { path: string; meta: Meta }
const read = (path: string, procedure: AnyProcedure): Read => ({ path, meta: procedure._def.meta as Meta });

/**
 * The one table of who may watch what: each topic lists the REST reads whose answers carry what the
 * topic carries, and whoever may call one of them (by its own meta: capability, scopes, session
 * only) may watch the topic. A read's access changes, the topic's follows. Topics that no read
 * shows yet are for guild admins and unscoped keys only. `overview` is not here: each of its
 * counters follows the topic it counts (`overviewCounters`).
 */
export const topicReads: Record<Exclude<Topic, 'overview'>, Read[]> = {
  units: [read('GET /units', unitsRouter._def.procedures.list)],
  // Alarm entries carry status and since, which only GET /units shows; GET /me/alarm (callsigns
  // only) has its own live twin, me.alarm.watch.
  alarm: [read('GET /units', unitsRouter._def.procedures.list)],
  onDuty: [read('GET /admin/on-duty', timeclockRouter._def.procedures.onDuty)],
  dispatchers: [read('GET /dispatchers', dispatchRouter._def.procedures.list)],
  standby: [read('GET /standby', dispatchRouter._def.procedures.standby)],
  calls: [read('GET /calls', callsRouter._def.procedures.list), read('GET /integrations/ingame/calls', callsRouter._def.procedures.ingameList)],
  einsatzEntries: [read('GET /incidents/{number}', incidentsRouter._def.procedures.get)],
  access: [read('GET /access', accessRouter._def.procedures.status)],
  settings: [read('GET /admin/call-rate-limit', callsRouter._def.procedures.rateLimit)],
  emojis: [read('GET /emojis', emojisRouter._def.procedures.list)],
  letterheads: [read('GET /letterheads', letterheadsRouter._def.procedures.list)],
  uploads: [],
  medic: [read('GET /medic/patients', medicRouter._def.procedures.patients)],
};

/**
 * The 404 for a subscribe to topics whose every REST read belongs to a module switched off for the
 * guild (those reads answer 404), or null. Checked when a subscription starts; a module switched
 * off later stops the writes that feed its topics (their routes answer 404 too).
 */
export function switchedOff(topics: readonly Topic[], modules: Record<ModuleName, boolean>): AppError | null {
  const off = new Map<ModuleName, Topic[]>();
  for (const t of topics) {
    const reads = t === 'overview' ? [] : topicReads[t];
    const mods = reads.map((r) => r.meta.module);
    if (!reads.length || mods.some((m) => !m || modules[m])) continue;
    off.set(mods[0]!, [...(off.get(mods[0]!) ?? []), t]);
  }
  if (!off.size) return null;
  const parts = [...off].map(([m, ts]) => `module "${m}" is switched off for this guild (topics ${ts.join(', ')})`);
  return new AppError('NOT_FOUND', `${parts.join('; ')}; subscribe without ${[...off.values()].flat().length > 1 ? 'them' : 'it'}`,
    { reason: 'module_off', params: { module: [...off.keys()].join(', ') } });
}

function mayCall(p: Principal, meta: Meta): boolean {
  if (meta.access === 'none') return true;
  try {
    checkAccess(p, meta);
    return true;
  } catch {
    return false;
  }
}

function isFullAccess(p: Principal): boolean {
  return p.kind === 'key' ? p.scopes === null : p.isAdmin;
}

export function mayWatch(p: Principal, topic: Exclude<Topic, 'overview'>): boolean {
  const reads = topicReads[topic];
  return reads.length ? reads.some((r) => mayCall(p, r.meta)) : isFullAccess(p);
}

/** The overview counters `p` may see: null for all of them. */
function overviewFor(p: Principal): OverviewCounter[] | null {
  const counters = (Object.keys(overviewCounters) as OverviewCounter[]).filter((c) => mayWatch(p, overviewCounters[c]));
  return counters.length === Object.keys(overviewCounters).length ? null : counters;
}

/** What a principal of this kind would need for the topic (and the REST reads it follows), for error messages. */
function need(kind: Principal['kind'], topic: Topic, showReads: boolean): string {
  const sources = topic === 'overview' ? [...new Set(Object.values(overviewCounters))] : [topic];
  const reads = sources.flatMap((t) => topicReads[t]);
  const like = reads.length && showReads ? `, like ${[...new Set(reads.map((r) => r.path))].join(' or ')}` : '';
  if (kind === 'key') {
    const scopes = [...new Set(reads.filter((r) => !r.meta.sessionOnly).flatMap((r) => r.meta.scopes ?? []))];
    return scopes.length ? `needs the scope ${scopes.join(' or ')}${like}` : 'no scoped key may watch it';
  }
  if (reads.some((r) => r.meta.access === 'member' && !r.meta.capability)) return 'needs membership';
  const caps = [...new Set(reads.map((r) => r.meta.capability).filter(Boolean))];
  return caps.length ? `needs the capability ${caps.join(' or ')}${like}` : 'needs admin rights';
}

/**
 * `units (needs the capability dispatch.view, like GET /units), overview.units, overview.openCalls
 * (needs the capability dispatch.view)`: topics one by one, overview counters grouped by what they need.
 */
function listRefused(p: Principal, refused: readonly string[]): string {
  const counters = new Map<string, string[]>();
  const parts: string[] = [];
  for (const item of refused) {
    if (!item.startsWith('overview.')) {
      parts.push(`${item} (${need(p.kind, item as Topic, item !== 'overview')})`);
      continue;
    }
    const why = need(p.kind, overviewCounters[item.slice('overview.'.length) as OverviewCounter], false);
    counters.set(why, [...(counters.get(why) ?? []), item]);
  }
  for (const [why, items] of counters) parts.push(`${items.join(', ')} (${why})`);
  return parts.join(', ');
}

export interface Grant {
  view: LiveView;
  /** Requested topics, or `overview.<counter>`s of a narrowed view, that `p` may not see. */
  refused: string[];
}

/** The part of `topics` that `p` may watch. `overview` is kept with the counters `p` may see, when there is one. */
export function grant(p: Principal, topics: readonly Topic[]): Grant {
  const allowed: Topic[] = [];
  const refused: string[] = [];
  let overview: OverviewCounter[] | null = null;
  for (const t of topics) {
    if (t === 'overview') {
      overview = overviewFor(p);
      if (overview && !overview.length) refused.push(t);
      else allowed.push(t);
    } else if (mayWatch(p, t)) allowed.push(t);
    else refused.push(t);
  }
  return { view: { topics: allowed, overview }, refused };
}

/** The FORBIDDEN answer to a subscribe that asks for topics `p` may not watch. */
export function refusal(p: Principal, refused: readonly string[]): AppError {
  const who = p.kind === 'key' ? (p.scopes === null ? 'this API key' : 'this scoped API key') : 'your rank';
  return new AppError('FORBIDDEN', `${who} may not watch ${listRefused(p, refused)}; subscribe without ${refused.length > 1 ? 'them' : 'it'}`);
}

/**
 * What is left of `view` for `p` now (after a rank or rights change): null when nothing changed;
 * else the narrower view, what was dropped (`overview.<counter>` for single counters) and why.
 * Rights that grew do not widen a view: the next subscribe gets them.
 */
export function narrowed(p: Principal | null, view: LiveView): { view: LiveView; dropped: string[]; reason: string } | null {
  if (!p) return { view: { topics: [], overview: null }, dropped: [...view.topics], reason: 'you are no longer a member of this guild' };
  const now = grant(p, view.topics);
  const dropped = [...now.refused];
  const why = [...now.refused];
  let topics = now.view.topics;
  let overview = view.overview;
  if (topics.includes('overview')) {
    const all = Object.keys(overviewCounters) as OverviewCounter[];
    const had = view.overview ?? all;
    const may = now.view.overview ?? all;
    const kept = had.filter((c) => may.includes(c));
    const lost = had.filter((c) => !kept.includes(c)).map((c) => `overview.${c}`);
    if (!kept.length) {
      // Counters it may see now but had not are not started here (they need a snapshot): the next subscribe gets them.
      topics = topics.filter((t) => t !== 'overview');
      dropped.push('overview');
    } else if (lost.length) {
      dropped.push(...lost);
      overview = kept;
    }
    why.push(...lost);
  }
  if (!dropped.length) return null;
  return { view: { topics, overview }, dropped, reason: `your rights changed: you may no longer watch ${listRefused(p, why)}` };
}

/**
 * The topics `p` may watch in a guild with these modules: what a board subscribes to, so that
 * neither a 403 nor a 404 refuses it. `overview` is in when any of its counters is.
 */
export function watchable(p: Principal, modules: Record<ModuleName, boolean>): Topic[] {
  const all = Object.keys(topicReads) as Exclude<Topic, 'overview'>[];
  const mine: Topic[] = all.filter((t) => mayWatch(p, t) && !switchedOff([t], modules));
  return grant(p, ['overview']).refused.length ? mine : ['overview', ...mine];
}
