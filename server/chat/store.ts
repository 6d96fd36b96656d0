import type { Db } from '../store/db.ts';

// ---- Gateway lease (sql/0010) ------------------------------------------------------------------

/**
 * Takes or renews the platform's gateway lease for `node` until now + `ttlMs`: succeeds when the
 * node holds it already or the holder's lease has expired. One statement, so two nodes racing for
 * an expired lease cannot both win. A change of holder resets the reported connection.
 */
export async function claimLease(db: Db, platform: string, node: string, ttlMs: number): Promise<boolean> {
  const rows = await db`
    insert into chat_gateway (platform, holder, expires_at)
    values (${platform}, ${node}, now() + ${ttlMs} * interval '1 millisecond')
    on conflict (platform) do update set
      expires_at = excluded.expires_at,
      holder = excluded.holder,
      connected = chat_gateway.connected and chat_gateway.holder = excluded.holder,
      updated_at = now()
    where chat_gateway.holder = excluded.holder or chat_gateway.expires_at < now()
    returning holder`;
  return rows.length > 0;
}

export async function releaseLease(db: Db, platform: string, node: string): Promise<void> {
  await db`delete from chat_gateway where platform = ${platform} and holder = ${node}`;
}

/** What the holder reports about its connection; ignored when `node` no longer holds the lease. */
export async function reportConnection(db: Db, platform: string, node: string, bot: { connected: boolean; userId: string | null; name: string | null }): Promise<void> {
  await db`update chat_gateway set connected = ${bot.connected}, bot_user_id = ${bot.userId}, bot_name = ${bot.name}, updated_at = now()
    where platform = ${platform} and holder = ${node}`;
}

/** Whether a holder reported the bot connected within its lease, and the bot's name. */
export async function gatewayState(db: Db, platform: string): Promise<{ connected: boolean; botName: string | null } | null> {
  const [row] = await db`select connected and expires_at > now() as connected, bot_name from chat_gateway where platform = ${platform}`;
  return row ? { connected: row.connected, botName: row.bot_name } : null;
}

// ---- Panels --------------------------------------------------------------------------------------

export interface PanelRow { guildId: string; channelId: string; messageId: string; language: 'de' | 'en' }

export async function panelOf(db: Db, guildId: string): Promise<PanelRow | null> {
  const [row] = await db`select channel_id, message_id, language from chat_panels where guild_id = ${guildId}`;
  return row ? { guildId, channelId: row.channel_id, messageId: row.message_id, language: row.language } : null;
}

export async function guildsWithPanels(db: Db): Promise<string[]> {
  return (await db`select guild_id from chat_panels`).map((r) => r.guild_id as string);
}

/** Records the guild's panel; returns the one it replaces (its message is then deleted in Discord). */
export async function savePanel(db: Db, guildId: string, panel: Omit<PanelRow, 'guildId'>, postedBy: string): Promise<PanelRow | null> {
  const [old] = await db`select channel_id, message_id, language from chat_panels where guild_id = ${guildId}`;
  await db`insert into chat_panels (guild_id, channel_id, message_id, language, posted_by)
    values (${guildId}, ${panel.channelId}, ${panel.messageId}, ${panel.language}, ${postedBy})
    on conflict (guild_id) do update set channel_id = excluded.channel_id, message_id = excluded.message_id,
      language = excluded.language, posted_by = excluded.posted_by, posted_at = now()`;
  return old ? { guildId, channelId: old.channel_id, messageId: old.message_id, language: old.language } : null;
}

/** Forgets a panel whose message is gone in Discord, unless /panel has replaced it meanwhile. */
export async function forgetPanel(db: Db, guildId: string, messageId: string): Promise<void> {
  await db`delete from chat_panels where guild_id = ${guildId} and message_id = ${messageId}`;
}

/** The badge of a member (null: none yet); undefined when the user is no member of the guild. */
export async function personBadge(db: Db, guildId: string, userId: string): Promise<string | null | undefined> {
  const [row] = await db`select badge from people where guild_id = ${guildId} and user_id = ${userId}`;
  return row ? row.badge : undefined;
}
