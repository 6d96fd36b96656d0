import { MessageFlags, PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import { membership } from '../auth/store.ts';
import { AppError } from '../core/errors.ts';
import type { Deps } from '../deps.ts';
import { DEFAULT_COLOR } from '../domains/branding/service.ts';
import { chartLookOf, leaderboardCharts, leaderboardSpec, renderPng, type LeaderboardChart } from '../domains/stats/chart-images.ts';
import { formatDuration } from '../domains/stats/charts/index.ts';
import { periodQuery } from '../domains/stats/schema.ts';
import { leaderboard, type Leaderboard } from '../domains/stats/service.ts';
import { STATS_MAX_COUNT, statsDefaults, statsOptions } from './commands.ts';
import type { BotContext } from './interactions.ts';
import { escapeMarkdown } from './panel-view.ts';
import { textsFor, type StatsPeriod, type Texts } from './texts.ts';

const ephemeral = MessageFlags.Ephemeral;
/** The chart's file name; the embed shows it as its image. */
export const STATS_FILE = 'dienstzeiten.png';
/** About 1333×750 for bars and trend, 1154×866 for the share: sharp in Discord, a few hundred KB at most. */
const STATS_MAX_PIXELS = 1_000_000;
/** Discord allows 4096 characters in an embed description; the list stops well before it. */
const MAX_DESCRIPTION = 3900;
const periods: readonly StatsPeriod[] = ['daily', 'weekly', 'monthly', 'alltime'];

export interface StatsChoice { period: StatsPeriod; count: number; chart: LeaderboardChart }

/**
 * `/statistik`: posts the duty-time leaderboard in the channel, visible to everyone, with the
 * chart as an attached PNG. Members with stats.leaderboard.view, guild admins and Discord's
 * "Manage Server" may post it; everyone else gets an ephemeral refusal. The reply is deferred
 * before the query and the render (they may take longer than Discord's 3 s window), and whatever
 * fails after that replaces the "thinking…" message with a clear text: never a silent failure.
 */
export async function handleStatsCommand(ctx: BotContext, i: ChatInputCommandInteraction<'cached' | 'raw'>, t: Texts) {
  const { deps } = ctx;
  const modules = await deps.guilds.modules(i.guildId);
  if (!modules) return void await i.reply({ content: t.noInstance, flags: ephemeral });
  if (!modules.stats) return void await i.reply({ content: t.statsOff, flags: ephemeral });
  if (!(await mayViewStats(deps, i))) return void await i.reply({ content: t.noStatsRight, flags: ephemeral });
  const choice = statsChoice(i);
  await i.deferReply();
  // A public post: in the server's language, not the asker's.
  const posted = textsFor(i.guildLocale);
  let board: Leaderboard, look: { name: string; color: string };
  try {
    [board, look] = await Promise.all([
      leaderboard(deps, i.guildId, periodQuery({ period: choice.period }), { limit: choice.count }),
      chartLookOf(deps, i.guildId),
    ]);
  } catch (err) {
    const dbDown = err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE';
    if (!dbDown) deps.log.warn('/statistik: the leaderboard failed', { guildId: i.guildId, error: String(err) });
    return void await replaceReply(ctx, i, dbDown ? posted.statsDbDown : posted.statsFailed);
  }
  let png: Buffer | null = null;
  try {
    png = Buffer.from((await renderPng(leaderboardSpec(choice.chart, board, look.name), { maxPixels: STATS_MAX_PIXELS, theme: 'dark' }, look.color)).base64, 'base64');
  } catch (err) {
    // The numbers are right without the picture: the leaderboard is posted and says the chart is missing.
    deps.log.warn('/statistik: the chart could not be rendered', { guildId: i.guildId, chart: choice.chart, error: String(err) });
  }
  const embed = statsEmbed(posted, board, look, { askedBy: askerName(i), chart: png !== null });
  try {
    await i.editReply({ embeds: [embed], files: png ? [{ attachment: png, name: STATS_FILE }] : [], allowedMentions: { parse: [] } });
  } catch (err) {
    deps.log.warn('/statistik: Discord refused the leaderboard message', { guildId: i.guildId, error: String(err) });
    await replaceReply(ctx, i, posted.statsFailed);
  }
}

/** Who may post the leaderboard: Discord's "Manage Server", a guild admin, or a rank with stats.leaderboard.view. */
async function mayViewStats(deps: Deps, i: ChatInputCommandInteraction<'cached' | 'raw'>): Promise<boolean> {
  if (i.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) return true;
  const m = await membership(deps.sql, i.guildId, i.user.id);
  return !!m && (m.isAdmin || m.capabilities.includes('stats.leaderboard.view'));
}

/** The options as given, each defaulted; values Discord would never send fall back to the default too. */
export function statsChoice(i: ChatInputCommandInteraction<'cached' | 'raw'>): StatsChoice {
  const period = i.options.getString(statsOptions.period);
  const count = i.options.getInteger(statsOptions.count);
  const chart = i.options.getString(statsOptions.chart);
  return {
    period: periods.includes(period as StatsPeriod) ? period as StatsPeriod : statsDefaults.period,
    count: count !== null && count >= 1 && count <= STATS_MAX_COUNT ? count : statsDefaults.count,
    chart: (leaderboardCharts as readonly string[]).includes(chart ?? '') ? chart as LeaderboardChart : statsDefaults.chart,
  };
}

/** The leaderboard as an embed: period, totals, the period before, one line per person; the chart as its image. */
export function statsEmbed(t: Texts, b: Leaderboard, look: { name: string; color: string }, o: { askedBy: string; chart: boolean }) {
  const head = [
    `**${t.statsPeriod[b.period as StatsPeriod]}** ${t.statsRange(b.range.firstDay, b.range.lastDay)}`,
    t.statsTotals(formatDuration(b.totals.totalMs), b.totals.activeCount, b.totals.totalShifts),
  ];
  const previous = b.trend.previous;
  if (previous) head.push(t.statsPrevious(t.statsRange(previous.firstDay, previous.lastDay), formatDuration(previous.totalMs), b.trend.changePct));
  const rows = b.rows.map((r) => `**${r.place}.** ${r.badgeNumber ? `\`${r.badgeNumber}\` ` : ''}${escapeMarkdown(r.nickname)} · ${formatDuration(r.totalMs)}`);
  const tail = o.chart ? [] : [`⚠️ ${t.statsNoChart}`];
  const body = rows.length ? fitLines(rows, MAX_DESCRIPTION - head.join('\n').length - tail.join('').length - 4, t.statsMore) : t.statsNobody;
  return {
    title: t.statsTitle(escapeMarkdown(look.name)).slice(0, 256),
    description: [...head, '', body, ...(tail.length ? ['', ...tail] : [])].join('\n'),
    color: colorOf(look.color),
    ...(o.chart ? { image: { url: `attachment://${STATS_FILE}` } } : {}),
    footer: { text: t.statsAskedBy(o.askedBy).slice(0, 2048) },
    timestamp: new Date().toISOString(),
  };
}

/** Lines up to `max` characters; the rest is counted in one last line. */
function fitLines(lines: string[], max: number, more: (n: number) => string): string {
  const kept: string[] = [];
  let length = 0;
  for (const [n, line] of lines.entries()) {
    if (length + line.length + 40 > max) return [...kept, more(lines.length - n)].join('\n');
    kept.push(line);
    length += line.length + 1;
  }
  return kept.join('\n');
}

/** The guild's accent colour (#rrggbb) as Discord's embed colour integer. */
function colorOf(hex: string): number {
  return Number.parseInt((/^#[0-9a-f]{6}$/i.test(hex) ? hex : DEFAULT_COLOR).slice(1), 16);
}

function askerName(i: ChatInputCommandInteraction<'cached' | 'raw'>): string {
  const member = i.member as { nick?: string | null; displayName?: string } | null;
  return member?.displayName ?? member?.nick ?? i.user.globalName ?? i.user.username;
}

/** The deferred reply becomes a plain message; if even that fails, the log says so (the interaction is acknowledged already). */
async function replaceReply(ctx: BotContext, i: ChatInputCommandInteraction<'cached' | 'raw'>, content: string) {
  await i.editReply({ content, embeds: [], files: [], attachments: [] })
    .catch((err) => ctx.deps.log.warn('/statistik: could not edit the deferred reply', { guildId: i.guildId, error: String(err) }));
}
