import { MessageFlags, type AutocompleteInteraction, type ButtonInteraction, type ChatInputCommandInteraction, type ModalSubmitInteraction } from 'discord.js';
import { AppError } from '../core/errors.ts';
import { createApiKey, deleteApiKey, listApiKeys } from '../domains/apikeys/service.ts';
import { CreateUnscopedKey } from '../domains/apikeys/schema.ts';
import { apikeySub } from './commands.ts';
import { isGuildAdmin, mayManage, type BotContext } from './interactions.ts';
import type { Texts } from './texts.ts';

/** Custom ids of the key dialogs; a delete confirmation carries the key id. */
export const keyIds = { createModal: 'dt:apikey:create', nameField: 'name', confirmDelete: 'dt:apikey:delete:', cancelDelete: 'dt:apikey:cancel' } as const;

const ephemeral = MessageFlags.Ephemeral;
/** Discord shows at most 25 autocomplete choices. */
const MAX_CHOICES = 25;

/**
 * `/apikey erstellen|liste|löschen`: the guild's keys. Listing and deleting for its admins and
 * `settings.manage`; creating (an unscoped key, which acts as the guild's admin) for guild admins only.
 */
export async function handleKeyCommand(ctx: BotContext, i: ChatInputCommandInteraction<'cached' | 'raw'>, t: Texts) {
  if (!(await mayManage(ctx.deps, i))) return void await i.reply({ content: t.notAdmin, flags: ephemeral });
  const sub = i.options.getSubcommand();
  if (sub === apikeySub.create) {
    if (!(await isGuildAdmin(ctx.deps, i))) return void await i.reply({ content: t.keyCreateNotAdmin, flags: ephemeral });
    return void await i.showModal({
      custom_id: keyIds.createModal, title: t.keyModalTitle,
      components: [{ type: 1, components: [{ type: 4, custom_id: keyIds.nameField, label: t.keyModalName, style: 1, min_length: 1, max_length: 64, required: true }] }],
    });
  }
  if (sub === apikeySub.list) {
    const { keys } = await listApiKeys(ctx.deps, i.guildId);
    if (!keys.length) return void await i.reply({ content: t.keysNone, flags: ephemeral });
    const lines = keys.map((k) => `**${k.name}** ${t.keyLine(k.last4, k.createdAt, k.lastUsedAt, 'scopes' in k)}`);
    return void await i.reply({ embeds: [{ title: t.keysTitle(keys.length), description: fitLines(lines, 4000) }], flags: ephemeral });
  }
  if (sub === apikeySub.delete) {
    const wanted = i.options.getString('schluessel', true).trim();
    const { keys } = await listApiKeys(ctx.deps, i.guildId);
    const byId = keys.find((k) => k.id === wanted);
    const byName = keys.filter((k) => k.name === wanted);
    if (!byId && byName.length > 1) return void await i.reply({ content: t.keyAmbiguous(wanted), flags: ephemeral });
    const key = byId ?? byName[0];
    if (!key) return void await i.reply({ content: t.keyUnknown(wanted), flags: ephemeral });
    return void await i.reply({
      content: t.keyConfirm(key.name, key.last4), flags: ephemeral,
      components: [{ type: 1, components: [
        { type: 2, style: 4, custom_id: `${keyIds.confirmDelete}${key.id}`, label: t.delete },
        { type: 2, style: 2, custom_id: keyIds.cancelDelete, label: t.cancel },
      ] }],
    });
  }
}

/** The create modal's answer: the key is shown once, only to the admin who asked (checked again: a modal may be old). */
export async function handleKeyModal(ctx: BotContext, i: ModalSubmitInteraction<'cached' | 'raw'>, t: Texts) {
  if (!(await mayManage(ctx.deps, i))) return void await i.reply({ content: t.notAdmin, flags: ephemeral });
  if (!(await isGuildAdmin(ctx.deps, i))) return void await i.reply({ content: t.keyCreateNotAdmin, flags: ephemeral });
  const parsed = CreateUnscopedKey.safeParse({ name: i.fields.getTextInputValue(keyIds.nameField) });
  if (!parsed.success) return void await i.reply({ content: t.keyBadName(parsed.error.issues[0].message), flags: ephemeral });
  const created = await createApiKey(ctx.deps.sql, i.guildId, parsed.data.name, null);
  await i.reply({ content: t.keyCreated(created.name, created.key), flags: ephemeral });
}

/** The delete confirmation's buttons; the right is checked again (the message may be old). */
export async function handleKeyButton(ctx: BotContext, i: ButtonInteraction<'cached' | 'raw'>, t: Texts) {
  if (i.customId === keyIds.cancelDelete) return void await i.update({ content: t.cancelled, components: [] });
  if (!i.customId.startsWith(keyIds.confirmDelete)) return;
  if (!(await mayManage(ctx.deps, i))) return void await i.reply({ content: t.notAdmin, flags: ephemeral });
  const id = i.customId.slice(keyIds.confirmDelete.length);
  const name = (await listApiKeys(ctx.deps, i.guildId)).keys.find((k) => k.id === id)?.name;
  try {
    if (!/^\d{1,18}$/.test(id) || !name) throw new AppError('NOT_FOUND', 'gone');
    await deleteApiKey(ctx.deps, i.guildId, id);
    await i.update({ content: t.keyDeleted(name), components: [] });
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'NOT_FOUND') throw err;
    await i.update({ content: t.keyGone, components: [] });
  }
}

/** Suggests keys by name while an admin types; others get no suggestions (and a refusal on submit). */
export async function handleKeyAutocomplete(ctx: BotContext, i: AutocompleteInteraction<'cached' | 'raw'>) {
  if (!(await mayManage(ctx.deps, i))) return void await i.respond([]);
  const typed = i.options.getFocused().toLowerCase();
  const { keys } = await listApiKeys(ctx.deps, i.guildId);
  const choices = keys.filter((k) => k.name.toLowerCase().includes(typed)).slice(0, MAX_CHOICES)
    .map((k) => ({ name: `${k.name} · …${k.last4}`.slice(0, 100), value: k.id }));
  await i.respond(choices);
}

function fitLines(lines: string[], max: number): string {
  let out = '';
  for (const [n, line] of lines.entries()) {
    if (out.length + line.length + 20 > max) return `${out}… (+${lines.length - n})`;
    out += `${line}\n`;
  }
  return out.trimEnd();
}
