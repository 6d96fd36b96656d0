import { branding, guild, guilds } from './session.ts';

/** The parts of a guild's branding a board shows: header name, accent colour, icon and tab order. */
export interface ShownBranding { name: string; color: string; secondaryColor?: string; tabOrder: string[]; iconUrl: string }

/**
 * Shows a branding change on this board at once: the one it saved itself, or one another board
 * saved (topic `access`, op `branding`, which every board watches).
 */
export function applyBranding(b: ShownBranding): void {
  if (branding.value) branding.value = { ...branding.value, name: b.name, color: b.color, tabOrder: b.tabOrder, iconUrl: b.iconUrl, ...(b.secondaryColor ? { secondaryColor: b.secondaryColor } : {}) };
  document.documentElement.style.setProperty('--accent', b.color);
  const g = guild.value;
  if (g && g.name !== b.name) {
    guild.value = { ...g, name: b.name };
    guilds.value = guilds.value.map((x) => (x.guildId === g.guildId ? { ...x, name: b.name } : x));
    document.title = `${b.name} · Dispatch Terminal`;
  }
}
