import { z } from 'zod';
import { recordId, RecordIdOut } from '../../core/record-id.ts';
import { trimmed } from '../../core/text.ts';
import { defaultTabOrder, modules } from '../../../contract/modules.ts';

export const GuildIdParam = z.strictObject({ guildId: z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, 'guildId is not a valid guild id') });

/** `v`: the version `iconUrl` carries so a browser loads a changed icon at once; any value serves the current icon. */
export const IconParam = GuildIdParam.extend({
  v: z.string().regex(/^[0-9a-z]{1,40}$/, 'v is an icon version: 1 to 40 lower-case letters and digits').optional(),
});

const iconUrl = z.string().describe('Path of the guild icon from the server root (`/api/v1/branding/{guildId}/icon.png?v=…`), usable as it is in an <img src>; '
  + 'the `v` changes with the icon, so a changed icon is a new URL.');

export const Branding = z.object({
  guildId: z.string(),
  name: z.string(),
  modules: z.object(Object.fromEntries(modules.map((m) => [m, z.boolean()]))).describe('Which modules are on.'),
  tabOrder: z.array(z.string()),
  color: z.string().describe('Accent colour, #rrggbb.'),
  secondaryColor: z.string().describe('Second colour, #rrggbb.'),
  iconUrl,
});

export const Png = z.object({ contentType: z.literal('image/png'), base64: z.string() });

const Color = (what: string) => z.string({ error: `${what} must be a string #rrggbb` })
  .regex(/^#[0-9a-fA-F]{6}$/, `${what} must be a colour #rrggbb`).transform((c) => c.toLowerCase());

const tabs = defaultTabOrder as [string, ...string[]];
const Tab = z.enum(tabs, { error: (iss) => `unknown tab ${JSON.stringify(iss.input)}; known tabs: ${tabs.join(', ')}` });

/** An upload id as GET /uploads lists it (a string of digits); a number is taken too. */
const UploadId = recordId('iconUploadId');

export const PatchBranding = z.strictObject({
  name: trimmed(100, 'name').optional(),
  color: Color('color').optional(),
  secondaryColor: Color('secondaryColor').optional(),
  tabOrder: z.array(Tab).max(tabs.length, `tabOrder has at most ${tabs.length} tabs`)
    .refine((list) => new Set(list).size === list.length, 'tabOrder must not repeat a tab')
    .describe('Tabs in the order the board shows them; tabs left out follow in their default order. [] restores the default.')
    .optional(),
  iconUploadId: UploadId.nullable().optional()
    .describe('An upload of this guild to make the icon from (centre square, 256×256 PNG, kept when the upload is deleted); null: the generated default.'),
}).refine((p) => Object.keys(p).length > 0, 'nothing to change: send at least one of name, color, secondaryColor, tabOrder, iconUploadId');

export const AdminBranding = z.object({
  name: z.string(),
  color: z.string().describe('Accent colour, #rrggbb.'),
  secondaryColor: z.string().describe('Second colour, #rrggbb.'),
  tabOrder: z.array(z.string()).describe('The order in effect (the default when none was set).'),
  iconUrl,
  customIcon: z.boolean().describe('true: an icon made from an upload; false: the generated default in the accent colour.'),
  iconUploadId: RecordIdOut.nullable().describe('The upload the icon was made from (it may have been deleted since; the icon stays).'),
});
