import { randomBytes } from 'node:crypto';
import { tinyGif, tinyPng } from './images.ts';

export interface StandInEmoji { id: string; name: string; animated?: boolean; available?: boolean; image?: Buffer /* bytes the CDN serves; default: a generated tiny PNG (GIF when animated) */ }
export interface StandInUser { id: string; username: string; globalName?: string }
export interface StandInMember extends StandInUser { manageGuild?: boolean /* member has the MANAGE_GUILD permission (0x20) */ }
/** A file of a message; contentType from the bytes for images (as Discord decides), width/height for PNG and GIF images. */
export interface StandInAttachment { id: string; filename: string; description: string | null; contentType: string; size: number; data: Buffer; width?: number; height?: number }
export interface StandInMessage {
  id: string; channelId: string; content: string; embeds: any[]; components: any[];
  /** How many PATCHes reached this message (successful edits). */
  edits: number; deleted: boolean; createdAt: number; editedAt: number | null;
  /** Added: the guild, Discord's message flags (64 ephemeral), files sent with it, the interaction it answers. */
  guildId: string; flags: number; ephemeral: boolean; attachments: StandInAttachment[]; interactionId: string | null;
}
export interface StandInGuild {
  id: string; name: string; preferredLocale: string; ownerId: string; joinedAt: string;
  channels: { id: string; name: string }[];
  emojis: StandInEmoji[];
  members: Map<string, StandInMember>;
  /** The @everyone role's id is the guild's id (as in Discord); the others are made at addGuild. */
  roleIds: { manager: string; bot: string };
}

/** Discord's epoch (2015-01-01) for snowflakes. */
const EPOCH = 1420070400000n;
let lastSnowflake = 0n;
/** A snowflake like Discord's (timestamp << 22 | increment): 18–19 digits, strictly increasing in this process. */
export function snowflake(): string {
  let id = (BigInt(Date.now()) - EPOCH) << 22n;
  if (id <= lastSnowflake) id = lastSnowflake + 1n;
  lastSnowflake = id;
  return id.toString();
}

/** Permission bits the stand-in uses (Discord's values). */
export const Perm = {
  manageGuild: 0x20n,
  viewChannel: 0x400n,
  sendMessages: 0x800n,
  embedLinks: 0x4000n,
  attachFiles: 0x8000n,
  readHistory: 0x10000n,
  useExternalEmojis: 0x40000n,
  manageExpressions: 0x40000000n,
  useAppCommands: 0x80000000n,
  all: (1n << 51n) - 1n,
};
/** @everyone in every stand-in guild: see, write, read history, use commands. */
export const everyonePerms = Perm.viewChannel | Perm.sendMessages | Perm.readHistory | Perm.useAppCommands | Perm.useExternalEmojis;
export const botPerms = everyonePerms | Perm.embedLinks | Perm.attachFiles | Perm.manageExpressions;


export function emojiImage(e: StandInEmoji): Buffer {
  return e.image ?? (e.animated ? tinyGif(e.id) : tinyPng(e.id));
}

/** A bot token in Discord's shape: base64(application id) . base64(time) . secret. */
export function makeBotToken(applicationId: string): string {
  const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${b64(Buffer.from(applicationId))}.${b64(randomBytes(4))}.${b64(randomBytes(27))}`;
}

export class World {
  readonly applicationId: string;
  readonly botUserId: string;
  readonly botToken: string;
  readonly clientSecret = randomBytes(24).toString('base64url');
  readonly guilds = new Map<string, StandInGuild>();
  readonly users = new Map<string, StandInUser>();
  readonly messages = new Map<string, StandInMessage>();
  /** Registered commands: key 'global' or the guild id. */
  readonly commands = new Map<string, any[]>();
  /** Command ids stay the same when a command of that name and type is overwritten (as Discord keeps them). */
  readonly commandIds = new Map<string, string>();
  private readonly commandWaiters = new Set<() => void>();
  readonly botUsername = 'Leitstelle';

  constructor(applicationId?: string) {
    this.applicationId = applicationId ?? snowflake();
    this.botUserId = this.applicationId;
    this.botToken = makeBotToken(this.applicationId);
  }

  guild(id: string): StandInGuild | undefined {
    return this.guilds.get(id);
  }

  channel(id: string): { guild: StandInGuild; channel: { id: string; name: string }; position: number } | null {
    for (const guild of this.guilds.values()) {
      const position = guild.channels.findIndex((c) => c.id === id);
      if (position !== -1) return { guild, channel: guild.channels[position], position };
    }
    return null;
  }

  setCommands(scope: string, commands: any[]) {
    this.commands.set(scope, commands);
    for (const wake of [...this.commandWaiters]) wake();
  }

  /** Resolves when commands are registered next (or at once if `check` already holds). */
  async waitForCommands(check: () => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!check()) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.commandWaiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.commandWaiters.add(wake);
      });
    }
    return true;
  }

  /** The permissions a member has in a guild (owner: all). */
  memberPermissions(guild: StandInGuild, userId: string): bigint {
    if (userId === guild.ownerId) return Perm.all;
    if (userId === this.botUserId) return botPerms;
    const m = guild.members.get(userId);
    return everyonePerms | (m?.manageGuild ? Perm.manageGuild : 0n);
  }

  // ---- payloads as Discord sends them ----

  botUser() {
    return { id: this.botUserId, username: this.botUsername, global_name: null, discriminator: '4821', avatar: null, bot: true, verified: true, mfa_enabled: false, flags: 0, public_flags: 0 };
  }

  userPayload(u: StandInUser) {
    if (u.id === this.botUserId) return this.botUser();
    return { id: u.id, username: u.username, global_name: u.globalName ?? null, discriminator: '0', avatar: null, public_flags: 0, flags: 0, banner: null, accent_color: null, avatar_decoration_data: null };
  }

  memberPayload(guild: StandInGuild, userId: string) {
    const isBot = userId === this.botUserId;
    const m = guild.members.get(userId);
    const user = isBot ? this.botUser() : this.userPayload(m ?? this.users.get(userId) ?? { id: userId, username: `user${userId.slice(-4)}` });
    const roles = isBot ? [guild.roleIds.bot] : m?.manageGuild ? [guild.roleIds.manager] : [];
    return { user, roles, nick: null, avatar: null, banner: null, joined_at: guild.joinedAt, premium_since: null, deaf: false, mute: false, flags: 0, pending: false, communication_disabled_until: null };
  }

  rolePayloads(guild: StandInGuild) {
    const role = (id: string, name: string, position: number, permissions: bigint, managed = false) => ({
      id, name, color: 0, colors: { primary_color: 0, secondary_color: null, tertiary_color: null }, hoist: false, icon: null, unicode_emoji: null,
      position, permissions: permissions.toString(), managed, mentionable: false, flags: 0,
      ...(managed ? { tags: { bot_id: this.botUserId } } : {}),
    });
    return [
      role(guild.id, '@everyone', 0, everyonePerms),
      role(guild.roleIds.manager, 'Leitung', 1, everyonePerms | Perm.manageGuild),
      role(guild.roleIds.bot, this.botUsername, 2, botPerms, true),
    ];
  }

  channelPayload(guild: StandInGuild, c: { id: string; name: string }, position: number) {
    const last = [...this.messages.values()].filter((m) => m.channelId === c.id && !m.ephemeral).at(-1);
    return {
      id: c.id, type: 0, guild_id: guild.id, name: c.name, position, permission_overwrites: [], nsfw: false, parent_id: null,
      topic: null, rate_limit_per_user: 0, last_message_id: last?.id ?? null, flags: 0,
    };
  }

  emojiPayload(e: StandInEmoji) {
    return { id: e.id, name: e.name, roles: [], require_colons: true, managed: false, animated: Boolean(e.animated), available: e.available ?? true };
  }

  /** The guild object of REST (`GET /guilds/{id}`): no channels or members. */
  guildPayload(guild: StandInGuild) {
    return {
      id: guild.id, name: guild.name, icon: null, splash: null, discovery_splash: null, banner: null, description: null,
      owner_id: guild.ownerId, region: 'deprecated', afk_channel_id: null, afk_timeout: 300, widget_enabled: false, widget_channel_id: null,
      verification_level: 1, default_message_notifications: 1, explicit_content_filter: 2, mfa_level: 0, nsfw_level: 0,
      roles: this.rolePayloads(guild), emojis: guild.emojis.map((e) => this.emojiPayload(e)), stickers: [], features: [],
      application_id: null, system_channel_id: guild.channels[0]?.id ?? null, system_channel_flags: 0, rules_channel_id: null,
      public_updates_channel_id: null, safety_alerts_channel_id: null, vanity_url_code: null, premium_tier: 0, premium_subscription_count: 0,
      preferred_locale: guild.preferredLocale, max_members: 500000, max_video_channel_users: 25, max_stage_video_channel_users: 50,
      premium_progress_bar_enabled: false, incidents_data: null,
    };
  }

  /** GUILD_CREATE as the gateway sends it once the guild is available (what discord.js caches). */
  guildCreatePayload(guild: StandInGuild) {
    return {
      ...this.guildPayload(guild),
      joined_at: guild.joinedAt, large: false, unavailable: false, member_count: guild.members.size + 1,
      channels: guild.channels.map((c, i) => this.channelPayload(guild, c, i)),
      members: [this.memberPayload(guild, this.botUserId)],
      presences: [], voice_states: [], threads: [], stage_instances: [], guild_scheduled_events: [], soundboard_sounds: [],
      embedded_activities: [], activity_instances: [], lazy: true, application_command_counts: {}, hub_type: null,
    };
  }

  messagePayload(m: StandInMessage) {
    const interaction = m.interactionId ? { webhook_id: this.applicationId, application_id: this.applicationId } : {};
    return {
      id: m.id, channel_id: m.channelId, guild_id: m.guildId, type: m.interactionId ? 20 : 0,
      author: this.botUser(), content: m.content, embeds: m.embeds, components: m.components,
      attachments: m.attachments.map((a) => this.attachmentPayload(m, a)),
      timestamp: new Date(m.createdAt).toISOString(), edited_timestamp: m.editedAt ? new Date(m.editedAt).toISOString() : null,
      tts: false, mention_everyone: false, mentions: [], mention_roles: [], mention_channels: [], pinned: false, flags: m.flags,
      sticker_items: [], reactions: undefined, ...interaction,
    };
  }

  /** Set by the server once it listens: where /cdn is served. */
  cdnUrl = '';

  /** Where the CDN serves a file of a message in this channel. */
  attachmentUrl(channelId: string, a: StandInAttachment): string {
    return `${this.cdnUrl}/attachments/${channelId}/${a.id}/${encodeURIComponent(a.filename)}`;
  }

  attachmentPayload(m: StandInMessage, a: StandInAttachment) {
    const url = this.attachmentUrl(m.channelId, a);
    return {
      id: a.id, filename: a.filename, size: a.size, url, proxy_url: url, content_type: a.contentType,
      ...(a.description !== null ? { description: a.description } : {}), ...(a.width !== undefined ? { width: a.width, height: a.height } : {}),
    };
  }
}
