import type { Db } from '../../store/db.ts';
import type { Actor } from '../../store/tx.ts';

export interface ChartLinkRow {
  id: string; chart: string; params: Record<string, unknown>; label: string; tokenLast4: string;
  createdBy: { kind: string; id: string }; createdAt: Date; lastFetchedAt: Date | null; fetchCount: number;
}

const columns = 'id, chart, params, label, token_last4, created_by_kind, created_by_id, created_at, last_fetched_at, fetch_count';

export async function insertChartLink(db: Db, guildId: string, l: { tokenHash: Buffer; tokenLast4: string; chart: string; params: Record<string, unknown>; label: string; by: Actor }): Promise<ChartLinkRow> {
  const [row] = await db`insert into chart_links (guild_id, token_hash, token_last4, chart, params, label, created_by_kind, created_by_id)
    values (${guildId}, ${l.tokenHash}, ${l.tokenLast4}, ${l.chart}, ${db.json(l.params as never)}, ${l.label}, ${l.by.kind}, ${l.by.id})
    returning ${db.unsafe(columns)}`;
  return toLink(row);
}

/** The guild's links that still work, newest first. */
export async function activeChartLinks(db: Db, guildId: string): Promise<ChartLinkRow[]> {
  const rows = await db`select ${db.unsafe(columns)} from chart_links where guild_id = ${guildId} and revoked_at is null order by created_at desc, id desc`;
  return rows.map(toLink);
}

/** Revokes a working link; false when the guild has no such working link. */
export async function revokeChartLink(db: Db, guildId: string, id: string): Promise<boolean> {
  const rows = await db`update chart_links set revoked_at = now() where guild_id = ${guildId} and id = ${id} and revoked_at is null returning id`;
  return rows.length > 0;
}

/** A working link by its token's hash, and counts the fetch; null when unknown or revoked. */
export async function fetchChartLink(db: Db, tokenHash: Buffer): Promise<{ guildId: string; chart: string; params: Record<string, unknown> } | null> {
  const [row] = await db`update chart_links set last_fetched_at = now(), fetch_count = fetch_count + 1
    where token_hash = ${tokenHash} and revoked_at is null returning guild_id, chart, params`;
  return row ? { guildId: row.guild_id, chart: row.chart, params: row.params } : null;
}

function toLink(r: Record<string, any>): ChartLinkRow {
  return {
    id: String(r.id), chart: r.chart, params: r.params, label: r.label, tokenLast4: r.token_last4,
    createdBy: { kind: r.created_by_kind, id: r.created_by_id }, createdAt: r.created_at, lastFetchedAt: r.last_fetched_at, fetchCount: Number(r.fetch_count),
  };
}
