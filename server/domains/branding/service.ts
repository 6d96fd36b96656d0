import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { guildById, guildIcon } from '../guilds/store.ts';
import { defaultTabOrder, effectiveModules } from '../guilds/modules.ts';
import { defaultIcon } from './icon.ts';
import { API_PREFIX } from '../../transport/routes.ts';

export const DEFAULT_COLOR = '#c0392b';

export async function branding(deps: Deps, guildId: string) {
  const g = await guildById(deps.sql, guildId);
  if (!g) throw new AppError('NOT_FOUND', `unknown guild ${guildId}`);
  return {
    guildId: g.id,
    name: g.name,
    modules: effectiveModules(g.modules),
    tabOrder: g.tabOrder.length ? g.tabOrder : defaultTabOrder,
    color: typeof g.branding.color === 'string' ? g.branding.color : DEFAULT_COLOR,
    iconUrl: `${API_PREFIX}/branding/${g.id}/icon.png`,
  };
}

const generated = new Map<string, string>(); // colour -> base64 PNG; a handful of colours at most

export async function icon(deps: Deps, guildId: string) {
  const g = await guildById(deps.sql, guildId);
  if (!g) throw new AppError('NOT_FOUND', `unknown guild ${guildId}`);
  const uploaded = g.hasIcon ? await guildIcon(deps.sql, guildId) : null;
  if (uploaded) return { contentType: 'image/png' as const, base64: uploaded.toString('base64') };
  const color = typeof g.branding.color === 'string' ? g.branding.color : DEFAULT_COLOR;
  let png = generated.get(color);
  if (!png) {
    png = defaultIcon(color).toString('base64');
    if (generated.size < 256) generated.set(color, png);
  }
  return { contentType: 'image/png' as const, base64: png };
}
