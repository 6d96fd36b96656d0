import { MessageFlags, PermissionFlagsBits, type ButtonInteraction, type ChatInputCommandInteraction, type Interaction } from 'discord.js';
import { DiscordAPIError } from '@discordjs/rest';
import { AppError } from '../core/errors.ts';
import type { Deps } from '../deps.ts';
import { createLoginLink } from '../auth/login-links.ts';
import { membership } from '../auth/store.ts';
import { clockIn, clockOut } from '../domains/timeclock/service.ts';
import { insertPerson } from '../domains/people/store.ts';
import { commandNames } from './commands.ts';
import { handleKeyAutocomplete, handleKeyButton, handleKeyCommand, handleKeyModal, keyIds } from './interactions-keys.ts';
import { handleStatsCommand } from './interactions-stats.ts';
import { buttonIds } from './panel-view.ts';
import type { PanelService } from './panel-service.ts';
import { personBadge } from './store.ts';
import { textsFor, type Texts } from './texts.ts';

export interface BotContext { deps: Deps; panels: PanelService }

const ephemeral = MessageFlags.Ephemeral;
/** Discord: missing access or permissions in a channel. */
const NO_ACCESS_CODES = new Set([50001, 50013]);

/**
 * Every interaction the bot answers: slash commands, the panel's buttons, the key modal and its
 * autocomplete. Answers are ephemeral (only the member who asked sees them); a failure becomes a
 * clear answer, never a silent "interaction failed".
 */
export async function handleInteraction(ctx: BotContext, i: Interaction): Promise<void> {
  if (!i.inGuild()) return;
  const t = textsFor(i.locale);
  try {
    if (i.isAutocomplete()) return await handleKeyAutocomplete(ctx, i);
    if (i.isChatInputCommand()) return await command(ctx, i, t);
    if (i.isModalSubmit() && i.customId === keyIds.createModal) return await handleKeyModal(ctx, i, t);
    if (i.isButton()) return await button(ctx, i, t);
  } catch (err) {
    const dbDown = err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE';
    if (!dbDown) ctx.deps.log.warn('discord interaction failed', { guildId: i.guildId, error: String(err) });
    if (i.isRepliable() && !i.replied && !i.deferred) {
      await i.reply({ content: dbDown ? t.dbDown : t.failed, flags: ephemeral }).catch(() => {});
    }
  }
}

async function command(ctx: BotContext, i: ChatInputCommandInteraction<'cached' | 'raw'>, t: Texts) {
  switch (i.commandName) {
    case commandNames.apikey: return handleKeyCommand(ctx, i, t);
    case commandNames.login: return login(ctx, i, t);
    case commandNames.panel: return panel(ctx, i, t);
    case commandNames.stats: return handleStatsCommand(ctx, i, t);
  }
}

async function button(ctx: BotContext, i: ButtonInteraction<'cached' | 'raw'>, t: Texts) {
  if (i.customId === buttonIds.clockIn || i.customId === buttonIds.clockOut) return clock(ctx, i, t, i.customId === buttonIds.clockIn);
  if (i.customId === buttonIds.login) return login(ctx, i, t);
  return handleKeyButton(ctx, i, t);
}

/** Admins of the guild: Discord's "Manage Server", or guild admin / `settings.manage` in our rank system. */
export async function mayManage(deps: Deps, i: Interaction<'cached' | 'raw'>): Promise<boolean> {
  if (i.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) return true;
  const m = await membership(deps.sql, i.guildId, i.user.id);
  return !!m && (m.isAdmin || m.capabilities.includes('settings.manage'));
}

/**
 * Guild admins only: Discord's "Manage Server", or the admin flag in our personnel. What an
 * unscoped key needs, since it acts as the guild's admin (`settings.manage` is not enough).
 */
export async function isGuildAdmin(deps: Deps, i: Interaction<'cached' | 'raw'>): Promise<boolean> {
  if (i.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) return true;
  return (await membership(deps.sql, i.guildId, i.user.id))?.isAdmin === true;
}

async function clock(ctx: BotContext, i: ButtonInteraction<'cached' | 'raw'>, t: Texts, clockingIn: boolean) {
  const { deps } = ctx;
  const modules = await deps.guilds.modules(i.guildId);
  if (!modules) return void await i.reply({ content: t.noInstance, flags: ephemeral });
  if (!modules.timeclock) return void await i.reply({ content: t.clockOff, flags: ephemeral });
  const m = await membership(deps.sql, i.guildId, i.user.id);
  if (!m) return void await i.reply({ content: t.noPerson, flags: ephemeral });
  if (!m.isAdmin && !m.capabilities.includes('timeclock.own.use')) return void await i.reply({ content: t.noClockRight, flags: ephemeral });
  if (clockingIn && !(await personBadge(deps.sql, i.guildId, i.user.id))) return void await i.reply({ content: t.noBadge, flags: ephemeral });
  // The same write as POST /me/clock-in and /me/clock-out, audited as the member's own.
  const audit = { actor: { kind: 'session' as const, id: i.user.id }, audited: true };
  try {
    const content = clockingIn
      ? t.clockedIn((await clockIn(deps, i.guildId, { userId: i.user.id }, audit)).clockInAt)
      : await clockOut(deps, i.guildId, { userId: i.user.id }, audit).then((r) => t.clockedOut(r.clockInAt, r.clockOutAt));
    await i.reply({ content, flags: ephemeral });
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'CONFLICT') throw err;
    await i.reply({ content: clockingIn ? t.alreadyIn : t.notIn, flags: ephemeral });
  }
}

/**
 * A one-time login link for the member who asks. A Discord admin of the guild who has no
 * personnel entry yet is added as a guild admin first: that is how the server's first admin gets in.
 */
async function login(ctx: BotContext, i: ChatInputCommandInteraction<'cached' | 'raw'> | ButtonInteraction<'cached' | 'raw'>, t: Texts) {
  const { deps } = ctx;
  if (!(await deps.guilds.modules(i.guildId))) return void await i.reply({ content: t.noInstance, flags: ephemeral });
  let added = false;
  if (!(await membership(deps.sql, i.guildId, i.user.id))) {
    if (!i.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) return void await i.reply({ content: t.noPerson, flags: ephemeral });
    const nickname = (displayName(i) ?? i.user.username).slice(0, 64);
    added = (await insertPerson(deps.sql, i.guildId, { userId: i.user.id, nickname, badge: null, rankId: null, isAdmin: true })) !== null;
  }
  const url = await createLoginLink(deps.sql, deps.config.publicUrl, i.guildId, i.user.id);
  await i.reply({ content: `${added ? `${t.loginAdded}\n` : ''}${t.loginLink(url)}`, flags: ephemeral });
}

function displayName(i: Interaction<'cached' | 'raw'>): string | null {
  const member = i.member as { nick?: string | null; displayName?: string } | null;
  return member?.displayName ?? member?.nick ?? i.user.globalName ?? null;
}

async function panel(ctx: BotContext, i: ChatInputCommandInteraction<'cached' | 'raw'>, t: Texts) {
  if (!(await ctx.deps.guilds.modules(i.guildId))) return void await i.reply({ content: t.noInstance, flags: ephemeral });
  if (!(await mayManage(ctx.deps, i))) return void await i.reply({ content: t.notAdmin, flags: ephemeral });
  const chosen = i.options.getString('sprache');
  const language = chosen === 'en' || chosen === 'de' ? chosen : i.guildLocale?.startsWith('en') ? 'en' : 'de';
  try {
    await ctx.panels.post(i.guildId, i.channelId, language, i.user.id);
  } catch (err) {
    if (err instanceof DiscordAPIError && NO_ACCESS_CODES.has(Number(err.code))) return void await i.reply({ content: t.panelNoAccess, flags: ephemeral });
    throw err;
  }
  await i.reply({ content: t.panelPosted, flags: ephemeral });
}
