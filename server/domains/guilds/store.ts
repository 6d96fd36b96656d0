import { randomEpoch } from '../../core/ids.ts';
import type { Db } from '../../store/db.ts';

export interface GuildRow {
  id: string; name: string; modules: Record<string, unknown>; tabOrder: string[];
  branding: Record<string, unknown>; hasIcon: boolean;
}

export async function guildById(db: Db, guildId: string): Promise<GuildRow | null> {
  const [row] = await db`select id, name, modules, tab_order, branding, icon_png is not null as has_icon
    from guilds where id = ${guildId}`;
  return row ? guildRow(row) : null;
}

function guildRow(row: Record<string, any>): GuildRow {
  return { id: row.id, name: row.name, modules: row.modules, tabOrder: row.tab_order, branding: row.branding, hasIcon: row.has_icon };
}

/** What `updateGuildBranding` changes; an absent field stays as stored. */
export interface BrandingUpdate {
  name?: string;
  tabOrder?: string[];
  /** Keys merged over the stored `branding` object. */
  brandingSet?: Record<string, string | number>;
  /** Keys removed from the stored `branding` object (after the merge). */
  brandingRemove?: string[];
  /** A new icon, or null for the generated default again. */
  iconPng?: Buffer | null;
}

/**
 * Applies the changes in one statement (the branding keys are merged in SQL, so concurrent changes
 * of different keys both survive) and returns the guild as it is now; null when the guild is gone.
 */
export async function updateGuildBranding(db: Db, guildId: string, u: BrandingUpdate): Promise<GuildRow | null> {
  const setIcon = u.iconPng !== undefined;
  const [row] = await db`update guilds set
      name = coalesce(${u.name ?? null}::text, name),
      tab_order = coalesce(${u.tabOrder ? db.json(u.tabOrder) : null}::jsonb, tab_order),
      branding = (branding || ${db.json(u.brandingSet ?? {})}::jsonb) - ${u.brandingRemove ?? []}::text[],
      icon_png = case when ${setIcon}::boolean then ${u.iconPng ?? null}::bytea else icon_png end
    where id = ${guildId}
    returning id, name, modules, tab_order, branding, icon_png is not null as has_icon`;
  return row ? guildRow(row) : null;
}

/** Creates the guild with its event stream (seq 0: no events yet; sql/0006); false when the id is taken. */
export async function insertGuild(db: Db, guildId: string, name: string): Promise<boolean> {
  const rows = await db`
    with guild as (insert into guilds (id, name) values (${guildId}, ${name}) on conflict (id) do nothing returning id),
    stream as (insert into event_streams (guild_id, epoch, seq) select id, ${randomEpoch()}, 0 from guild)
    select id from guild`;
  return rows.length > 0;
}

export async function guildIcon(db: Db, guildId: string): Promise<Buffer | null> {
  const [row] = await db`select icon_png from guilds where id = ${guildId}`;
  return row?.icon_png ?? null;
}

export async function setModules(db: Db, guildId: string, patch: Record<string, boolean>): Promise<Record<string, unknown>> {
  const [row] = await db`update guilds set modules = modules || ${db.json(patch)}
    where id = ${guildId} returning modules`;
  return row.modules;
}

export async function countGuilds(db: Db): Promise<number> {
  const [row] = await db`select count(*)::int as n from guilds`;
  return row.n;
}

export interface UserGuild { guildId: string; name: string; nickname: string; isAdmin: boolean }

/** Every guild the user is a member of, by name: what a signed-in board can choose from. */
export async function guildsOfUser(db: Db, userId: string): Promise<UserGuild[]> {
  const rows = await db`select g.id, g.name, p.nickname, p.is_admin from people p join guilds g on g.id = p.guild_id
    where p.user_id = ${userId} order by lower(g.name), g.id`;
  return rows.map((r) => ({ guildId: r.id, name: r.name, nickname: r.nickname, isAdmin: r.is_admin }));
}
