import { z } from 'zod';
import { modules } from '../guilds/modules.ts';

export const GuildIdParam = z.strictObject({ guildId: z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, 'guildId is not a valid guild id') });

export const Branding = z.object({
  guildId: z.string(),
  name: z.string(),
  modules: z.object(Object.fromEntries(modules.map((m) => [m, z.boolean()]))).describe('Which modules are on.'),
  tabOrder: z.array(z.string()),
  color: z.string().describe('Accent colour, #rrggbb.'),
  iconUrl: z.string().describe('Path of the guild icon from the server root (`/api/v1/branding/{guildId}/icon.png`), usable as it is in an <img src>.'),
});

export const Png = z.object({ contentType: z.literal('image/png'), base64: z.string() });
