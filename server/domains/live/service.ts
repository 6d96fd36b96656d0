import { tracked } from '@trpc/server';
import type { Deps } from '../../deps.ts';
import type { Context } from '../../trpc/context.ts';
import type { GuildHub } from '../../hub/guild-hub.ts';
import { trackedId } from '../../hub/frames.ts';
import type { Topic } from '../../hub/topics.ts';
import { prepareResume, watchFrames } from '../../hub/watch.ts';
import { Mailbox } from '../../hub/mailbox.ts';

function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal || signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * A board's live view: snapshot (or exactly the missed deltas), then deltas. On the uWS socket the
 * frames go through the serialize-once fan-out and this generator yields nothing; elsewhere it
 * yields the same tracked frames itself.
 */
export async function* watch(ctx: Context & { guildId: string }, topics: Topic[], lastEventId: string | null | undefined, signal: AbortSignal | undefined) {
  const hub = await ctx.deps.hub.guild(ctx.guildId);
  await prepareResume(hub, lastEventId);
  if (ctx.ws && ctx.deps.fanout) {
    const detach = ctx.deps.fanout.attach(hub, ctx.ws, topics, lastEventId);
    try {
      await aborted(signal);
    } finally {
      detach();
    }
    return;
  }
  yield* watchFrames(hub, topics, lastEventId, signal);
}

function alarmStateOf(hub: GuildHub, userId: string) {
  return { onDuty: userId in hub.states.onDuty, alarms: Object.keys(hub.states.alarm).sort() };
}

/** The caller's `{onDuty, alarms}` now and after every change of either (what an alarm sound listens to). */
export async function* watchAlarm(deps: Deps, guildId: string, userId: string, signal: AbortSignal | undefined) {
  const hub = await deps.hub.guild(guildId);
  const mailbox = new Mailbox<ReturnType<typeof tracked<{ onDuty: boolean; alarms: string[] }>>>({ latestOnly: true });
  let key = '';
  const offer = () => {
    const state = alarmStateOf(hub, userId);
    const next = JSON.stringify(state);
    if (next === key) return;
    key = next;
    mailbox.push(tracked(trackedId(hub.epoch, hub.head), state));
  };
  offer();
  const off = hub.listen((s) => {
    if (s.kind === 'reset' || s.event.deltas.onDuty || s.event.deltas.alarm) offer();
  });
  try {
    yield* mailbox.drain(signal);
  } finally {
    off();
  }
}

/**
 * `GET /me/alarm`: read from PostgreSQL, so it is exact on every node. `alarms`: units whose status
 * carries `alarm: true` in the guild's catalogue (`GET /admin/statuses`).
 */
export async function alarmNow(deps: Deps, guildId: string, userId: string) {
  const [row] = await deps.sql`
    select exists (select 1 from shifts where guild_id = ${guildId} and user_id = ${userId} and clock_out_at is null) as on_duty,
      coalesce((select array_agg(u.callsign order by u.callsign collate "C") from units u
        join unit_statuses s on s.guild_id = u.guild_id and s.code = u.status and s.alarm
        where u.guild_id = ${guildId}), '{}') as alarms`;
  return { onDuty: row.on_duty as boolean, alarms: row.alarms as string[] };
}
