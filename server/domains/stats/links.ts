import { randomBytes } from 'node:crypto';
import { hashSecret } from '../../auth/api-keys.ts';
import { AppError } from '../../core/errors.ts';
import { TtlCache } from '../../core/ttl-cache.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../store/tx.ts';
import { inGuildTx } from '../../store/tx.ts';
import { chartLookOf, leaderboardSpec, personSpec, renderPng, type LeaderboardChart, type PersonChart } from './chart-images.ts';
import * as links from './links-store.ts';
import { periodQuery, TOKEN_PATTERN, type ChartLinkInput } from './schema.ts';
import { leaderboard, personStats } from './service.ts';
import { peopleByIds } from './store.ts';

/** Where a link is fetched: outside /api/v1 (spec §9), no credential. */
export const embedPath = (token: string) => `/embed/chart/${token}.png`;

/** The parameters a link keeps: everything of its input but the chart and label. */
function storedParams(input: ChartLinkInput): Record<string, unknown> {
  const { chart: _chart, label: _label, ...params } = input;
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
}

export async function createChartLink(deps: Deps, guildId: string, input: ChartLinkInput, actor: Actor) {
  if (input.userId !== undefined && !(await peopleByIds(deps.sql, guildId, [input.userId])).has(input.userId)) {
    throw new AppError('NOT_FOUND', `no person ${input.userId} in this guild`);
  }
  const token = randomBytes(32).toString('base64url');
  const link = await inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    const row = await links.insertChartLink(tx.sql, guildId, {
      tokenHash: hashSecret(token), tokenLast4: token.slice(-4), chart: input.chart, params: storedParams(input), label: input.label ?? '', by: actor,
    });
    tx.audit('stats.chart_link_create', actor, { id: row.id, chart: row.chart });
    return row;
  });
  return { ...linkOut(link), token, url: `${deps.config.publicUrl}${embedPath(token)}` };
}

export async function listChartLinks(deps: Deps, guildId: string) {
  return { links: (await links.activeChartLinks(deps.sql, guildId)).map(linkOut) };
}

export async function revokeChartLink(deps: Deps, guildId: string, id: string, actor: Actor) {
  await inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    if (!(await links.revokeChartLink(tx.sql, guildId, id))) throw new AppError('NOT_FOUND', `no chart link ${id} in this guild`);
    tx.audit('stats.chart_link_revoke', actor, { id });
  });
  return { revoked: true as const, id };
}

function linkOut(l: links.ChartLinkRow) {
  return {
    id: l.id, chart: l.chart, params: l.params, label: l.label, tokenLast4: l.tokenLast4, createdBy: l.createdBy,
    createdAt: l.createdAt.toISOString(), lastFetchedAt: l.lastFetchedAt?.toISOString() ?? null, fetchCount: l.fetchCount,
  };
}

/**
 * A link's image, rendered from the guild's data of this moment; a node keeps the image it
 * rendered for a few seconds, so a link pasted into a busy channel renders once, not per viewer.
 * The link itself is looked up on every fetch: a revoked link or a switched-off module is 404 at once.
 */
const rendered = new TtlCache<{ contentType: 'image/png'; base64: string }>(15_000, 1000);

export async function embedChart(deps: Deps, token: string) {
  const notFound = new AppError('NOT_FOUND', 'no such chart link');
  if (!TOKEN_PATTERN.test(token)) throw notFound;
  const tokenHash = hashSecret(token);
  const link = await links.fetchChartLink(deps.sql, tokenHash);
  if (!link) throw notFound;
  const mods = await deps.guilds.modules(link.guildId);
  if (!mods?.stats) throw notFound;
  const key = tokenHash.toString('base64');
  const hit = rendered.get(key);
  if (hit) return hit;
  const png = await renderLinkChart(deps, link.guildId, link.chart, link.params as ChartLinkInput);
  rendered.set(key, png);
  return png;
}

/** Renders a stored link's chart in its stored language (German when it has none); the parameters were validated when the link was made. */
async function renderLinkChart(deps: Deps, guildId: string, chart: string, p: ChartLinkInput) {
  const look = await chartLookOf(deps, guildId);
  const [scope, type] = chart.split('/') as ['leaderboard' | 'user', string];
  if (scope === 'leaderboard') {
    const board = await leaderboard(deps, guildId, periodQuery(p), { limit: p.limit ?? 10, rank: p.rank, orgUnit: p.orgUnit });
    return renderPng(leaderboardSpec(type as LeaderboardChart, board, look.name, p.lang), p, look.color);
  }
  // a person who left the guild: the image is gone (404), the link stays listed until revoked
  const stats = await personStats(deps, guildId, p.userId!, periodQuery(p), false).catch((err) => {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw new AppError('NOT_FOUND', 'the person of this chart link is no longer in the guild');
    throw err;
  });
  return renderPng(personSpec(type as PersonChart, stats, look.name, p.lang), p, look.color);
}
