import { tracked } from '@trpc/server';
import type { AlarmState, CrewIncident } from '../../../contract/alarm.ts';
import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import type { Principal, SessionPrincipal } from '../../auth/principal.ts';
import type { Context } from '../../trpc/context.ts';
import { checkAccess } from '../../trpc/init.ts';
import type { Meta } from '../../trpc/meta.ts';
import type { GuildHub } from '../../hub/guild-hub.ts';
import { parseTrackedId, statusFrame, trackedId, type LiveView } from '../../hub/frames.ts';
import type { DroppedFrame, StatusFrame } from '../../../contract/frames.ts';
import type { Topic } from '../../../contract/topics.ts';
import { portableWatch, prepareResume } from '../../hub/watch.ts';
import { Mailbox } from '../../hub/mailbox.ts';
import { sessionRights } from './rights.ts';
import { grant, narrowed, refusal, switchedOff } from './topic-access.ts';
import { effectiveModules } from '../../../contract/modules.ts';
import { crewIncident } from '../incidents/alarm-store.ts';

type GuildContext = Context & { guildId: string; principal: Principal };

function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal || signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

function droppedFrame(hub: GuildHub, dropped: string[], topics: readonly Topic[], reason: string): DroppedFrame {
  return { kind: 'dropped', seq: hub.head, at: Date.now(), dropped, topics: [...topics], reason };
}

/**
 * A board's live view: snapshot (or exactly the missed deltas), then deltas, of the topics the
 * caller may watch (see topic-access.ts). A fresh subscribe that asks for a topic it may not watch
 * is refused (FORBIDDEN, naming the topics and what they need); a resume (`lastEventId`, which the
 * client re-sends with its original topics) keeps the allowed ones and starts with a `dropped`
 * frame. While it runs, a signed-in member whose rights shrink gets a `dropped` frame and only
 * what is left, or, with nothing left, a FORBIDDEN error that ends it. On the uWS socket the frames
 * go through the serialize-once fan-out and this generator yields nothing; elsewhere it yields the
 * same tracked frames itself.
 */
export async function* watch(ctx: GuildContext, topics: Topic[], lastEventId: string | null | undefined, signal: AbortSignal | undefined) {
  const { deps, principal: p } = ctx;
  const since = p.kind === 'session' ? sessionRights(deps).generation(p.guildId) : 0;
  const granted = grant(p, topics);
  const off = switchedOff(topics, (await deps.guilds.modules(ctx.guildId)) ?? effectiveModules({}));
  if (off) throw off;
  if (granted.refused.length && (!parseTrackedId(lastEventId) || !granted.view.topics.length)) throw refusal(p, granted.refused);
  const hub = await deps.hub.guild(ctx.guildId);
  await prepareResume(hub, lastEventId);
  const refusedNow = granted.refused.length ? droppedFrame(hub, granted.refused, granted.view.topics, refusal(p, granted.refused).message) : null;
  const { fanout } = deps;
  const sock = ctx.ws;
  if (sock && fanout) {
    let detach = fanout.attach(hub, sock, granted.view, lastEventId);
    if (refusedNow) fanout.sendTo(hub, sock, [refusedNow]);
    let revoke: (err: AppError) => void = () => {};
    const revoked = new Promise<AppError>((resolve) => (revoke = resolve));
    const unwatch = followRights(deps, p, since, hub, granted.view, {
      narrow: (view, frame) => void (detach = fanout.narrow(hub, sock, detach, view, frame)),
      end: (frame, err) => {
        detach();
        fanout.sendTo(hub, sock, [frame]);
        revoke(err);
      },
    });
    try {
      const err = await Promise.race([aborted(signal), revoked]);
      if (err) throw err;
    } finally {
      unwatch();
      detach();
    }
    return;
  }

  const w = portableWatch(hub, granted.view, lastEventId);
  if (refusedNow) w.push(refusedNow);
  if (!deps.dbHealth.up) w.push(statusFrame(hub.head, false));
  const offHealth = deps.dbHealth.onChange((up) => w.push(statusFrame(hub.head, up)));
  const unwatch = followRights(deps, p, since, hub, granted.view, {
    narrow: (view, frame) => {
      w.narrow(view);
      w.push(frame);
    },
    end: (frame, err) => {
      w.push(frame);
      w.fail(err);
    },
  });
  try {
    yield* w.frames(signal);
  } finally {
    offHealth();
    unwatch();
  }
}

/**
 * Follows a signed-in member's rights while a subscription runs (`since`: the rights generation
 * when `p` was read): each change that takes something away from the view calls `narrow` with what
 * is left and the dropped frame, or, with nothing left, `end` with the dropped frame and the
 * FORBIDDEN error that ends the subscription. API keys hold no rights machinery: their rights never
 * change (a deleted key closes its sockets). Returns the function that stops following.
 */
function followRights(
  deps: Deps, p: Principal, since: number, hub: GuildHub, initial: LiveView,
  on: { narrow(view: LiveView, frame: DroppedFrame): void; end(frame: DroppedFrame, err: AppError): void },
): () => void {
  if (p.kind !== 'session') return () => {};
  let view = initial;
  return sessionRights(deps).watch(p, since, (next) => {
    const change = narrowed(next, view);
    if (!change) return;
    view = change.view;
    const frame = droppedFrame(hub, change.dropped, view.topics, change.reason);
    if (view.topics.length) on.narrow(view, frame);
    else on.end(frame, new AppError('FORBIDDEN', change.reason));
  });
}


/** The callsign of the unit `userId` occupies (the units topic's members), or null. */
function occupiedUnit(hub: GuildHub, userId: string): string | null {
  for (const [callsign, unit] of Object.entries(hub.states.units)) {
    if ((unit as { members: { id: string }[] }).members.some((m) => m.id === userId)) return callsign;
  }
  return null;
}

function alarmStateOf(hub: GuildHub, userId: string): Omit<AlarmState, 'incident'> {
  const unit = occupiedUnit(hub, userId);
  const status = unit ? (hub.states.units[unit] as { status: string } | undefined)?.status : undefined;
  return { onDuty: userId in hub.states.onDuty, alarms: Object.keys(hub.states.alarm).sort(), unit, ...(status ? { unitStatus: status } : {}) };
}

/** Whether the event may change what the crew of `unit` sees of its incident (sheet `current`, if any). */
function touchesCrewIncident(deltas: Record<string, unknown[] | undefined>, unit: string, current: number | null): boolean {
  if (deltas.alarm?.some((op) => (op as { key?: string }).key === unit)) return true;
  return !!deltas.einsatzEntries?.some((raw) => {
    const op = raw as { number?: number; incident?: { units?: { callsign: string }[] } };
    return op.number === current || !!op.incident?.units?.some((u) => u.callsign === unit);
  });
}

/**
 * The caller's `{onDuty, alarms, unit}` now and after every change of one of them (what an alarm
 * sound listens to), and a `status` frame when the database stops or starts answering. Ends with
 * FORBIDDEN when the caller loses what `meta` (the procedure's own) needs.
 */
export async function* watchAlarm(ctx: GuildContext & { principal: SessionPrincipal }, meta: Meta, signal: AbortSignal | undefined) {
  const { deps, principal: p } = ctx;
  const rights = sessionRights(deps);
  const since = rights.generation(p.guildId);
  const hub = await deps.hub.guild(ctx.guildId);
  type Frame = ReturnType<typeof tracked<AlarmState | StatusFrame>>;
  const mailbox = new Mailbox<Frame>({ latestBy: (f) => ('kind' in f[1] ? 'status' : 'state') });
  let key = '';
  // The own unit's incident comes from PostgreSQL: read again when the unit changes or an event
  // touches it (its alarm, its sheet), one read at a time, in event order.
  let incident: CrewIncident | null = null;
  let incidentOf: string | null = null;
  let reads = Promise.resolve();
  // While PostgreSQL does not answer, the state goes out from memory at once, with the incident last read.
  const refresh = (unit: string | null) => {
    reads = reads.then(async () => {
      const same = unit === incidentOf;
      incident = !unit ? null : deps.dbHealth.up ? await crewIncident(deps.sql, ctx.guildId, unit).catch(() => (same ? incident : null)) : same ? incident : null;
      incidentOf = unit;
      offerNow();
    });
  };
  const offer = () => {
    const { unit } = alarmStateOf(hub, p.userId);
    if (unit !== incidentOf) refresh(unit);
    else offerNow();
  };
  const offerNow = () => {
    const state: AlarmState = { ...alarmStateOf(hub, p.userId), incident: incidentOf === occupiedUnit(hub, p.userId) ? incident : null };
    const next = JSON.stringify(state);
    if (next === key) return;
    key = next;
    mailbox.push(tracked(trackedId(hub.epoch, hub.head), state));
  };
  const status = (up: boolean) => mailbox.push(tracked(trackedId(hub.epoch, hub.head), statusFrame(hub.head, up)));
  // Listening before the first read: an event during it queues a read after it, none is missed.
  const off = hub.listen((s) => {
    const unit = occupiedUnit(hub, p.userId);
    if (unit && (s.kind === 'reset' || touchesCrewIncident(s.event.deltas as Record<string, unknown[]>, unit, incident?.number ?? null))) {
      if (unit === incidentOf) offerNow(); // the alarm itself goes out at once, from memory; the incident read follows
      refresh(unit);
    } else if (s.kind === 'reset' || s.event.deltas.onDuty || s.event.deltas.alarm || s.event.deltas.units) offer();
  });
  refresh(occupiedUnit(hub, p.userId));
  await reads;
  if (!deps.dbHealth.up) status(false);
  const offHealth = deps.dbHealth.onChange((up) => {
    status(up);
    if (up) refresh(occupiedUnit(hub, p.userId));
  });
  const unwatch = rights.watch(p, since, (next) => {
    if (!next) return mailbox.fail(new AppError('FORBIDDEN', 'you are no longer a member of this guild'));
    try {
      checkAccess(next, meta);
    } catch (err) {
      mailbox.fail(err as Error);
    }
  });
  try {
    yield* mailbox.drain(signal);
  } finally {
    off();
    offHealth();
    unwatch();
  }
}

/**
 * `GET /me/alarm`: read from PostgreSQL, so it is exact on every node. `alarms`: units whose status
 * carries `alarm: true` in the guild's catalogue (`GET /admin/statuses`); `unit`: the one the caller occupies.
 */
export async function alarmNow(deps: Deps, guildId: string, userId: string) {
  const [row] = await deps.sql`
    select exists (select 1 from shifts where guild_id = ${guildId} and user_id = ${userId} and clock_out_at is null) as on_duty,
      coalesce((select array_agg(u.callsign order by u.callsign collate "C") from units u
        join unit_statuses s on s.guild_id = u.guild_id and s.code = u.status and s.alarm
        where u.guild_id = ${guildId}), '{}') as alarms,
      own.callsign as unit, own.status as unit_status
    from (select) as one left join lateral (
      select u.callsign, u.status from unit_members m join units u on u.guild_id = m.guild_id and u.id = m.unit_id
      where m.guild_id = ${guildId} and m.user_id = ${userId} order by m.since limit 1
    ) as own on true`;
  const unit = (row.unit as string | null) ?? null;
  return {
    onDuty: row.on_duty as boolean, alarms: row.alarms as string[], unit, ...(row.unit_status ? { unitStatus: row.unit_status as string } : {}),
    incident: unit ? await crewIncident(deps.sql, guildId, unit) : null,
  };
}
