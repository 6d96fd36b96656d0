import { randomBytes } from 'node:crypto';
import { ATTACHMENT_SIZE_LIMIT } from './attachments.ts';
import type { Gateway } from './gateway.ts';
import { DiscordError, invalidForm, unknown, type UploadedFile } from './http.ts';
import type { Messages } from './messages.ts';
import { checkMemberMayUse, findCommand, optionLevel, optionValue } from './options.ts';
import { snowflake, type StandInGuild, type StandInMessage, type World } from './state.ts';
import { checkAutocomplete, checkModal, componentsWithIds } from './validate.ts';

/** A request on the interaction's webhook; `files`: the files it uploaded (multipart parts), in order. */
export interface LaterEntry { method: string; path: string; body: any; files: UploadedFile[]; messageId?: string }
export interface InteractionAnswer {
  /** The interaction callback's type (4 message, 5 deferred, 6 deferred update, 7 update message, 8 autocomplete result, 9 modal). */
  type: number;
  /** Its data (content, embeds, components, flags (64 = ephemeral), choices, custom_id/title/components of a modal). */
  data: any;
  /** Everything sent afterwards on the interaction's webhook (follow-ups and edits of @original), in order. */
  later: LaterEntry[];
  /** The next entry of `later` not yet returned by next() (waiting for it if needed; rejects after `ms`, default 5000). */
  next(ms?: number): Promise<LaterEntry>;
  /** Added: the interaction's id, and the message that is its @original (the reply, or the clicked message for 6/7), if any. */
  interactionId: string;
  messageId: string | null;
}

type Kind = 'command' | 'component' | 'modal' | 'autocomplete';
const TYPE: Record<Kind, number> = { command: 2, component: 3, autocomplete: 4, modal: 5 };
/** Callback types each interaction type may answer with (Discord's rules). */
const ALLOWED: Record<Kind, number[]> = { command: [4, 5, 9], component: [4, 5, 6, 7, 9], modal: [4, 5, 6, 7], autocomplete: [8] };

interface Pending {
  id: string; token: string; kind: Kind; guildId: string; channelId: string; userId: string; createdAt: number;
  /** The message a component sits on (or a modal opened from a component came from). */
  sourceMessageId: string | null;
  /** Type of the focused option, for autocomplete answers. */
  focusedType: number;
  answer: InteractionAnswer | null;
  waiters: Array<() => void>;
  settle: { resolve(a: InteractionAnswer): void; reject(e: Error): void; timer: NodeJS.Timeout };
}

export interface InteractionOptions {
  /** How long after INTERACTION_CREATE a callback is accepted (Discord: 3 s; later ones get 404 10062). */
  callbackWindowMs: number;
  /** How long slash()/button()/... wait for the bot's first callback. */
  answerTimeoutMs: number;
}

const WEBHOOK_LIFETIME_MS = 15 * 60_000;

export class Interactions {
  private readonly byId = new Map<string, Pending>();
  private readonly byToken = new Map<string, Pending>();
  /** Modals the bot showed, by custom_id (the last one wins), with the message they came from. */
  private readonly modals = new Map<string, { data: any; sourceMessageId: string | null }>();

  constructor(private readonly world: World, private readonly gateway: Gateway, private readonly messages: Messages, private readonly opts: InteractionOptions) {}

  // ---------------- sending interactions ----------------

  private member(guildId: string, userId: string): { guild: StandInGuild; perms: bigint } {
    const guild = this.world.guild(guildId);
    if (!guild) throw new Error(`discord stand-in: unknown guild ${guildId} (addGuild first)`);
    if (!guild.members.has(userId) && userId !== guild.ownerId) throw new Error(`discord stand-in: ${userId} is not a member of guild ${guildId} (addMember first)`);
    return { guild, perms: this.world.memberPermissions(guild, userId) };
  }

  private channelOf(guild: StandInGuild, channelId?: string) {
    const id = channelId ?? guild.channels[0]?.id;
    const position = guild.channels.findIndex((c) => c.id === id);
    if (position === -1) throw new Error(`discord stand-in: guild ${guild.id} has no channel ${channelId}`);
    return { channel: guild.channels[position], position };
  }

  private send(kind: Kind, guildId: string, userId: string, at: { channelId?: string; locale?: string; sourceMessageId?: string | null; focusedType?: number }, data: any, extra: Record<string, unknown> = {}): Promise<InteractionAnswer> {
    const { guild, perms } = this.member(guildId, userId);
    const { channel, position } = this.channelOf(guild, at.channelId);
    const id = snowflake();
    const token = Buffer.from(`interaction:${id}:${randomBytes(48).toString('base64url')}`).toString('base64url');
    const user = guild.members.get(userId) ?? this.world.users.get(userId) ?? { id: userId, username: 'owner' };
    const payload = {
      id, application_id: this.world.applicationId, type: TYPE[kind], data, guild_id: guild.id,
      guild: { id: guild.id, locale: guild.preferredLocale, features: [] },
      channel_id: channel.id, channel: { ...this.world.channelPayload(guild, channel, position), permissions: perms.toString() },
      member: { ...this.world.memberPayload(guild, userId), user: this.world.userPayload(user), permissions: perms.toString() },
      app_permissions: this.world.memberPermissions(guild, this.world.botUserId).toString(),
      locale: at.locale ?? 'de', guild_locale: guild.preferredLocale, token, version: 1, entitlements: [],
      authorizing_integration_owners: { '0': guild.id }, context: 0, attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
      ...extra,
    };
    return new Promise<InteractionAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`discord stand-in: the bot did not answer the ${kind} interaction ${describe(kind, data)} within ${this.opts.answerTimeoutMs} ms`));
      }, this.opts.answerTimeoutMs);
      const pending: Pending = {
        id, token, kind, guildId: guild.id, channelId: channel.id, userId, createdAt: Date.now(),
        sourceMessageId: at.sourceMessageId ?? null, focusedType: at.focusedType ?? 3, answer: null, waiters: [],
        settle: { resolve, reject, timer },
      };
      this.byId.set(id, pending);
      this.byToken.set(token, pending);
      this.gateway.dispatch('INTERACTION_CREATE', payload);
    });
  }

  async slash(guildId: string, userId: string, name: string, opts: { subcommand?: string; options?: Record<string, string | number | boolean>; channelId?: string; locale?: string } = {}): Promise<InteractionAnswer> {
    const { guild, perms } = this.member(guildId, userId);
    const cmd = await findCommand(this.world, guildId, name, this.opts.answerTimeoutMs);
    checkMemberMayUse(cmd, perms, userId);
    const { declared, wrap } = optionLevel(cmd, opts.subcommand);
    const resolved: any = {};
    const given = opts.options ?? {};
    const options: any[] = [];
    for (const [key, value] of Object.entries(given)) {
      const decl = declared.find((o) => o.name === key);
      if (!decl) throw new Error(`discord stand-in: /${name}${opts.subcommand ? ` ${opts.subcommand}` : ''} has no option ${key} (declared: ${declared.map((o) => o.name).join(', ') || 'none'})`);
      options.push({ name: key, type: decl.type, value: optionValue(this.world, name, decl, value, guild, resolved) });
    }
    for (const decl of declared) {
      if (decl.required && !(decl.name in given)) throw new Error(`discord stand-in: Discord does not send /${name} without its required option ${decl.name}`);
    }
    const data: any = { id: cmd.id, name: cmd.name, type: 1, ...(cmd.guild_id ? { guild_id: cmd.guild_id } : {}) };
    const nested = wrap(options);
    if (nested.length) data.options = nested;
    if (Object.keys(resolved).length) data.resolved = resolved;
    return this.send('command', guildId, userId, opts, data);
  }

  async autocomplete(guildId: string, userId: string, name: string, opts: { subcommand?: string; focused: { name: string; value: string }; options?: Record<string, string> }): Promise<InteractionAnswer> {
    const { guild, perms } = this.member(guildId, userId);
    const cmd = await findCommand(this.world, guildId, name, this.opts.answerTimeoutMs);
    checkMemberMayUse(cmd, perms, userId);
    const { declared, wrap } = optionLevel(cmd, opts.subcommand);
    const focusedDecl = declared.find((o) => o.name === opts.focused.name);
    if (!focusedDecl) throw new Error(`discord stand-in: /${name} has no option ${opts.focused.name}`);
    if (!focusedDecl.autocomplete) throw new Error(`discord stand-in: /${name} option ${opts.focused.name} is not declared with autocomplete: true, so Discord never asks the bot`);
    const options: any[] = [];
    for (const [key, value] of Object.entries(opts.options ?? {})) {
      const decl = declared.find((o) => o.name === key);
      if (!decl) throw new Error(`discord stand-in: /${name} has no option ${key}`);
      options.push({ name: key, type: decl.type, value: decl.type === 3 ? String(value) : optionValue(this.world, name, decl, value, guild, {}) });
    }
    // The focused value is what the member has typed so far: always a string.
    options.push({ name: opts.focused.name, type: focusedDecl.type, value: opts.focused.value, focused: true });
    const data: any = { id: cmd.id, name: cmd.name, type: 1, options: wrap(options), ...(cmd.guild_id ? { guild_id: cmd.guild_id } : {}) };
    return this.send('autocomplete', guildId, userId, { focusedType: focusedDecl.type }, data);
  }

  async button(guildId: string, userId: string, messageId: string, customId: string, opts: { locale?: string } = {}): Promise<InteractionAnswer> {
    const message = this.world.messages.get(messageId);
    if (!message || message.deleted) {
      const hint = message ? ' (it was deleted)' : this.world.channel(messageId) ? ' (that is a channel id: pass the message\'s id, e.g. answer.messageId of the reply that holds the button)' : '';
      throw new Error(`discord stand-in: no message ${messageId} to click on${hint}`);
    }
    if (message.guildId !== guildId) throw new Error(`discord stand-in: message ${messageId} is not in guild ${guildId}`);
    if (message.ephemeral) {
      const owner = message.interactionId ? this.byId.get(message.interactionId)?.userId : null;
      if (owner && owner !== userId) throw new Error(`discord stand-in: message ${messageId} is ephemeral; only ${owner} sees it`);
    }
    const component = componentsWithIds(message.components).find((c) => c.custom_id === customId);
    if (!component) {
      const ids = componentsWithIds(message.components).map((c) => c.custom_id);
      throw new Error(`discord stand-in: message ${messageId} has no component with custom_id ${customId} (has ${ids.join(', ') || 'none'})`);
    }
    if (component.disabled) throw new Error(`discord stand-in: the component ${customId} on message ${messageId} is disabled`);
    if (component.type !== 2) throw new Error(`discord stand-in: ${customId} is a component of type ${component.type}, not a button`);
    const data = { custom_id: customId, component_type: 2, ...(component.id !== undefined ? { id: component.id } : {}) };
    return this.send('component', guildId, userId, { channelId: message.channelId, locale: opts.locale, sourceMessageId: message.id }, data, { message: this.world.messagePayload(message) });
  }

  async modalSubmit(guildId: string, userId: string, customId: string, fields: Record<string, string>, opts: { channelId?: string; locale?: string } = {}): Promise<InteractionAnswer> {
    const modal = this.modals.get(customId);
    if (!modal) throw new Error(`discord stand-in: the bot never showed a modal with custom_id ${customId} (shown: ${[...this.modals.keys()].join(', ') || 'none'})`);
    const inputs = componentsWithIds(modal.data.components ?? []);
    for (const key of Object.keys(fields)) {
      if (!inputs.some((c) => c.custom_id === key)) throw new Error(`discord stand-in: modal ${customId} has no field ${key} (has ${inputs.map((c) => c.custom_id).join(', ')})`);
    }
    const value = (input: any) => {
      const v = fields[input.custom_id] ?? input.value ?? '';
      if (input.type === 4) {
        if ((input.required ?? true) && v === '') throw new Error(`discord stand-in: Discord does not submit modal ${customId} without its required field ${input.custom_id}`);
        if (v !== '' && input.min_length !== undefined && v.length < input.min_length) throw new Error(`discord stand-in: field ${input.custom_id} needs at least ${input.min_length} characters`);
        if (input.max_length !== undefined && v.length > input.max_length) throw new Error(`discord stand-in: field ${input.custom_id} allows at most ${input.max_length} characters`);
      }
      return { type: input.type, ...(input.id !== undefined ? { id: input.id } : {}), custom_id: input.custom_id, value: v };
    };
    // Discord answers in the shape the modal was shown in: action rows or (newer) label components.
    const components = (modal.data.components ?? []).map((c: any) => {
      if (c.type === 1) return { type: 1, ...(c.id !== undefined ? { id: c.id } : {}), components: (c.components ?? []).map(value) };
      if (c.type === 18) return { type: 18, ...(c.id !== undefined ? { id: c.id } : {}), component: value(c.component) };
      return { type: c.type, ...(c.id !== undefined ? { id: c.id } : {}) };
    });
    const source = modal.sourceMessageId ? this.world.messages.get(modal.sourceMessageId) : undefined;
    const extra = source && !source.deleted ? { message: this.world.messagePayload(source) } : {};
    return this.send('modal', guildId, userId, { ...opts, channelId: opts.channelId ?? source?.channelId, sourceMessageId: source?.id ?? null }, { custom_id: customId, components }, extra);
  }

  // ---------------- the bot's answers ----------------

  /** POST /interactions/{id}/{token}/callback */
  callback(id: string, token: string, withResponse: boolean, body: any, files: UploadedFile[]): { status: number; body?: unknown } {
    const p = this.byId.get(id);
    if (!p || p.token !== token) throw unknown('interaction', 10062);
    if (p.answer) throw new DiscordError(400, { message: 'Interaction has already been acknowledged.', code: 40060 });
    const late = Date.now() - p.createdAt;
    if (late > this.opts.callbackWindowMs) {
      clearTimeout(p.settle.timer);
      p.settle.reject(new Error(`discord stand-in: the bot answered the ${p.kind} interaction after ${late} ms; Discord only accepts a callback within ${this.opts.callbackWindowMs} ms (answered 404 Unknown interaction)`));
      throw unknown('interaction', 10062);
    }
    const type = body?.type;
    if (!ALLOWED[p.kind].includes(type) || ((type === 6 || type === 7) && !p.sourceMessageId)) {
      throw invalidForm([{ path: ['type'], code: 'INTERACTION_RESPONSE_TYPE_INVALID', message: `Callback type ${type} is not valid for this interaction` }]);
    }
    const data = body.data ?? {};
    let message: StandInMessage | null = null;
    switch (type) {
      case 4:
        message = this.messages.create({ guildId: p.guildId, channelId: p.channelId, interactionId: p.id, ephemeral: Boolean(data.flags & 64) }, data, files);
        break;
      case 5:
        message = this.messages.create({ guildId: p.guildId, channelId: p.channelId, interactionId: p.id, ephemeral: Boolean(data.flags & 64), loading: true }, {}, []);
        break;
      case 6:
      case 7: {
        const source = this.world.messages.get(p.sourceMessageId!);
        if (!source || source.deleted) throw unknown('Message', 10008);
        message = type === 7 ? this.messages.edit(source, data, files) : source;
        break;
      }
      case 8:
        checkAutocomplete(data, p.focusedType);
        break;
      case 9:
        checkModal(data);
        this.modals.set(data.custom_id, { data, sourceMessageId: p.sourceMessageId });
        break;
    }
    const answer = this.makeAnswer(p, type, data, message?.id ?? null);
    p.answer = answer;
    clearTimeout(p.settle.timer);
    p.settle.resolve(answer);
    if (!withResponse) return { status: 204 };
    return {
      status: 200,
      body: {
        interaction: {
          id: p.id, type: TYPE[p.kind], response_message_id: message?.id ?? null,
          response_message_loading: type === 5, response_message_ephemeral: Boolean(message?.ephemeral),
        },
        resource: { type, ...(message && type !== 6 ? { message: this.world.messagePayload(message) } : {}) },
      },
    };
  }

  private makeAnswer(p: Pending, type: number, data: any, messageId: string | null): InteractionAnswer {
    const later: LaterEntry[] = [];
    let cursor = 0;
    return {
      type, data, later, interactionId: p.id, messageId,
      next: (ms = 5000) => new Promise<LaterEntry>((resolve, reject) => {
        const take = () => {
          if (cursor >= later.length) return false;
          clearTimeout(timer);
          resolve(later[cursor++]);
          return true;
        };
        const timer = setTimeout(() => {
          p.waiters = p.waiters.filter((w) => w !== wake);
          reject(new Error(`discord stand-in: no follow-up or edit of the ${p.kind} interaction within ${ms} ms (had ${later.length})`));
        }, ms);
        const wake = () => {
          if (take()) p.waiters = p.waiters.filter((w) => w !== wake);
        };
        if (!take()) p.waiters.push(wake);
      }),
    };
  }

  /** /webhooks/{appId}/{token}[/messages/{id}]: follow-ups and edits of an acknowledged interaction. */
  webhook(method: string, appId: string, token: string, messageRef: string | null, path: string, query: URLSearchParams, body: any, files: UploadedFile[]): { status: number; body?: unknown } {
    const p = this.byToken.get(token);
    if (!p || appId !== this.world.applicationId || Date.now() - p.createdAt > WEBHOOK_LIFETIME_MS) throw unknown('Webhook', 10015);
    if (!p.answer) throw unknown('Webhook', 10015); // Discord: no follow-ups or edits before the interaction is acknowledged
    const answer = p.answer;
    const record = (messageId?: string) => {
      answer.later.push({ method, path, body, files, ...(messageId ? { messageId } : {}) });
      for (const wake of [...p.waiters]) wake();
    };
    if (messageRef === null) {
      if (method !== 'POST') throw new DiscordError(405, { message: '405: Method Not Allowed', code: 0 });
      const message = this.messages.create({ guildId: p.guildId, channelId: p.channelId, interactionId: p.id, ephemeral: Boolean(Number(body?.flags) & 64) }, body, files);
      record(message.id);
      return query.get('wait') === 'true' ? { status: 200, body: this.world.messagePayload(message) } : { status: 204 };
    }
    const message = this.webhookMessage(p, messageRef);
    if (method === 'GET') return { status: 200, body: this.world.messagePayload(message) };
    if (method === 'DELETE') {
      this.messages.delete(message);
      record(message.id);
      return { status: 204 };
    }
    if (method === 'PATCH') {
      this.messages.edit(message, body, files);
      record(message.id);
      return { status: 200, body: this.world.messagePayload(message) };
    }
    throw new DiscordError(405, { message: '405: Method Not Allowed', code: 0 });
  }

  private webhookMessage(p: Pending, ref: string): StandInMessage {
    const id = ref === '@original' ? p.answer?.messageId : ref;
    const message = id ? this.world.messages.get(id) : undefined;
    const ours = message && (message.interactionId === p.id || message.id === p.answer?.messageId);
    if (!message || message.deleted || !ours) throw unknown('Message', 10008);
    return message;
  }

  close() {
    for (const p of this.byId.values()) clearTimeout(p.settle.timer);
  }
}

function describe(kind: Kind, data: any): string {
  if (kind === 'command' || kind === 'autocomplete') return `/${data.name}${data.options?.[0]?.type === 1 ? ` ${data.options[0].name}` : ''}`;
  return data.custom_id;
}
