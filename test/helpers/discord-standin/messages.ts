import type { Gateway } from './gateway.ts';
import { Intent } from './gateway.ts';
import type { UploadedFile } from './http.ts';
import { attachmentsAfter, resolveEmbedFiles } from './attachments.ts';
import { snowflake, type StandInAttachment, type StandInMessage, type World } from './state.ts';
import { checkMessage } from './validate.ts';

/** Flags a bot may set on a message it sends: suppress embeds, silent, components v2. */
const SETTABLE_FLAGS = 4 | 4096 | 32768;
const EPHEMERAL = 64;
const LOADING = 128;

function normaliseEmbeds(embeds: any[]): any[] {
  return embeds.map((e) => ({ type: 'rich', ...e, ...(e.fields ? { fields: e.fields.map((f: any) => ({ inline: false, ...f })) } : {}) }));
}

/** Messages as Discord keeps them: created, edited and deleted by the bot (or a user), with gateway events. */
export class Messages {
  constructor(private readonly world: World, private readonly gateway: Gateway) {}

  create(at: { guildId: string; channelId: string; interactionId?: string | null; ephemeral?: boolean; loading?: boolean }, body: any, files: UploadedFile[]): StandInMessage {
    const b = body ?? {};
    const attachments = attachmentsAfter(files, b, null);
    const flags = (Number(b.flags) & SETTABLE_FLAGS) | (at.ephemeral ? EPHEMERAL : 0) | (at.loading ? LOADING : 0);
    if (!at.loading) checkMessage({ content: b.content, embeds: b.embeds, components: b.components, flags, attachments: attachments.length });
    const now = Date.now();
    const message: StandInMessage = {
      id: snowflake(), channelId: at.channelId, guildId: at.guildId,
      content: typeof b.content === 'string' ? b.content : '', embeds: this.embedsWith(at.channelId, b.embeds ?? [], attachments), components: b.components ?? [],
      edits: 0, deleted: false, createdAt: now, editedAt: null,
      flags, ephemeral: Boolean(at.ephemeral), attachments, interactionId: at.interactionId ?? null,
    };
    this.world.messages.set(message.id, message);
    if (!message.ephemeral) this.gateway.dispatch('MESSAGE_CREATE', { ...this.world.messagePayload(message), member: this.world.memberPayload(this.world.guild(at.guildId)!, this.world.botUserId) }, Intent.guildMessages);
    return message;
  }

  /** An edit: only the fields present change; the result must still be a valid, non-empty message. */
  edit(message: StandInMessage, body: any, files: UploadedFile[]): StandInMessage {
    const b = body ?? {};
    const has = (k: string) => Object.prototype.hasOwnProperty.call(b, k);
    const content = has('content') ? (b.content ?? '') : message.content;
    const embeds = has('embeds') ? (b.embeds ?? []) : message.embeds;
    const components = has('components') ? (b.components ?? []) : message.components;
    const attachments = attachmentsAfter(files, b, message.attachments);
    const flags = has('flags') ? (message.flags & (EPHEMERAL)) | (Number(b.flags) & SETTABLE_FLAGS) : message.flags & ~LOADING;
    checkMessage({ content, embeds, components, flags, attachments: attachments.length });
    Object.assign(message, {
      content, embeds: this.embedsWith(message.channelId, embeds, attachments), components, attachments, flags: flags & ~LOADING,
      edits: message.edits + 1, editedAt: Date.now(),
    });
    if (!message.ephemeral) this.gateway.dispatch('MESSAGE_UPDATE', this.world.messagePayload(message), Intent.guildMessages);
    return message;
  }

  /** Embeds as Discord stores them: type rich, fields inline false, `attachment://` media as the files' CDN urls. */
  private embedsWith(channelId: string, embeds: any[], attachments: StandInAttachment[]): any[] {
    return resolveEmbedFiles(normaliseEmbeds(embeds), attachments, (a) => this.world.attachmentUrl(channelId, a));
  }

  delete(message: StandInMessage) {
    message.deleted = true;
    if (!message.ephemeral) this.gateway.dispatch('MESSAGE_DELETE', { id: message.id, channel_id: message.channelId, guild_id: message.guildId }, Intent.guildMessages);
  }
}
