import { createHash } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx, type Actor } from '../../store/tx.ts';
import { guildById, guildIcon, updateGuildBranding, type BrandingUpdate, type GuildRow } from '../guilds/store.ts';
import { defaultTabOrder, effectiveModules } from '../../../contract/modules.ts';
import { defaultIcon, MAX_ICON_SOURCE_PIXELS, squareIcon } from './icon.ts';
import { uploadOfGuild } from '../uploads/store.ts';
import { API_PREFIX } from '../../transport/routes.ts';
import type { z } from 'zod';
import type { PatchBranding } from './schema.ts';

export const DEFAULT_COLOR = '#c0392b';
export const DEFAULT_SECONDARY_COLOR = '#2c3e50';

const colorOf = (g: GuildRow, key: string, fallback: string) => (typeof g.branding[key] === 'string' ? g.branding[key] as string : fallback);

/**
 * The icon's version in its URL: the hash of an uploaded icon (kept in `branding.iconHash` when it is
 * set), or the colour of the generated one (it is drawn from the colour alone).
 */
function iconVersion(g: GuildRow): string {
  if (g.hasIcon) return typeof g.branding.iconHash === 'string' ? `u${g.branding.iconHash}` : 'u';
  return `d${colorOf(g, 'color', DEFAULT_COLOR).slice(1)}`;
}

function view(g: GuildRow) {
  return {
    name: g.name,
    tabOrder: g.tabOrder.length ? g.tabOrder : defaultTabOrder,
    color: colorOf(g, 'color', DEFAULT_COLOR),
    secondaryColor: colorOf(g, 'secondaryColor', DEFAULT_SECONDARY_COLOR),
    iconUrl: `${API_PREFIX}/branding/${g.id}/icon.png?v=${iconVersion(g)}`,
  };
}

async function guildOrNotFound(deps: Deps, guildId: string): Promise<GuildRow> {
  const g = await guildById(deps.sql, guildId);
  if (!g) throw new AppError('NOT_FOUND', `unknown guild ${guildId}`);
  return g;
}

export async function branding(deps: Deps, guildId: string) {
  const g = await guildOrNotFound(deps, guildId);
  return { guildId: g.id, modules: effectiveModules(g.modules), ...view(g) };
}

function adminView(g: GuildRow) {
  const uploadId = g.branding.iconUploadId; // a string; rows written before ids were strings hold a number
  return { ...view(g), customIcon: g.hasIcon, iconUploadId: g.hasIcon && (typeof uploadId === 'string' || typeof uploadId === 'number') ? String(uploadId) : null };
}

export async function adminBranding(deps: Deps, guildId: string) {
  return adminView(await guildOrNotFound(deps, guildId));
}

/**
 * Changes what the input names, in one transaction with its audit row; every board is told (topic
 * `access`, which all boards watch, and `settings` for the settings page). An icon is made from the
 * upload before the transaction opens, so a slow decode holds no row lock.
 */
export async function setBranding(deps: Deps, guildId: string, input: z.output<typeof PatchBranding>, actor: Actor) {
  const update: BrandingUpdate = { name: input.name, tabOrder: input.tabOrder, brandingSet: {}, brandingRemove: [] };
  const audit: Record<string, unknown> = {};
  for (const key of ['name', 'color', 'secondaryColor', 'tabOrder'] as const) if (input[key] !== undefined) audit[key] = input[key];
  if (input.color !== undefined) update.brandingSet!.color = input.color;
  if (input.secondaryColor !== undefined) update.brandingSet!.secondaryColor = input.secondaryColor;
  if (input.iconUploadId === null) {
    update.iconPng = null;
    update.brandingRemove = ['iconHash', 'iconUploadId'];
    audit.icon = null;
  } else if (input.iconUploadId !== undefined) {
    const png = await iconFromUpload(deps, guildId, input.iconUploadId);
    update.iconPng = png;
    update.brandingSet!.iconHash = createHash('sha256').update(png).digest('hex').slice(0, 16);
    update.brandingSet!.iconUploadId = input.iconUploadId;
    audit.icon = { uploadId: input.iconUploadId };
  }
  const result = await inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    const g = await updateGuildBranding(tx.sql, guildId, update);
    if (!g) throw new AppError('NOT_FOUND', `unknown guild ${guildId}`);
    const now = view(g);
    tx.emit('settings', { op: 'set', key: 'branding', value: now });
    // Every board shows the name, colour, icon and tab order, not only those allowed to watch settings.
    tx.emit('access', { op: 'branding', value: now });
    tx.audit('settings.branding_set', actor, audit);
    return adminView(g);
  });
  if (input.name !== undefined) deps.panel.refresh(guildId); // the chat panel carries the guild's name
  return result;
}

async function iconFromUpload(deps: Deps, guildId: string, uploadId: string): Promise<Buffer> {
  const upload = await uploadOfGuild(deps.sql, guildId, uploadId);
  // 400 as for a letterhead's logo: the body names something this guild has not (another guild's upload looks the same).
  if (!upload) throw new AppError('BAD_REQUEST', `${uploadId} is not an upload of this guild (see GET /uploads)`);
  if (upload.width * upload.height > MAX_ICON_SOURCE_PIXELS) {
    throw new AppError('BAD_REQUEST', `upload ${uploadId} is ${upload.width}×${upload.height}; an icon is made from at most ${MAX_ICON_SOURCE_PIXELS / 1e6} megapixels`);
  }
  return squareIcon(upload.data);
}

const generated = new Map<string, string>(); // colour -> base64 PNG; a handful of colours at most

/** The current icon. The generated ones are cached by colour alone (they depend on nothing else), so a cache entry is never stale. */
export async function icon(deps: Deps, guildId: string) {
  const g = await guildOrNotFound(deps, guildId);
  const uploaded = g.hasIcon ? await guildIcon(deps.sql, guildId) : null;
  if (uploaded) return { contentType: 'image/png' as const, base64: uploaded.toString('base64') };
  const color = colorOf(g, 'color', DEFAULT_COLOR);
  let png = generated.get(color);
  if (!png) {
    png = defaultIcon(color).toString('base64');
    if (generated.size < 256) generated.set(color, png);
  }
  return { contentType: 'image/png' as const, base64: png };
}
