import { z } from 'zod';
import { recordId, RecordIdOut } from '../../core/record-id.ts';
import { plain, trimmed } from '../../core/text.ts';
import { letterheadLimits } from '../../../contract/limits.ts';

/** Limits of a letterhead (field sizes: contract/limits.ts), chosen to fit the top of an A4 page (and the preview) legibly. */
export const MAX_LETTERHEADS = 200;
/** Preview width in pixels: 1240 is an A4 page at 150 dpi, 2480 at 300 dpi. */
export const PREVIEW_WIDTH = { min: 300, default: 1240, max: 2480 } as const;

/** Ids are strings of digits (a number is taken too); see recordId. */
export const LetterheadId = recordId('id');
const UploadId = recordId('logoUploadId');

const oneLine = (s: string) => !/[\r\n\u2028\u2029]/.test(s);

/** Free text on one line (names, organisation, address lines): trimmed, no line breaks. */
const line = (max: number, what: string) => trimmed(max, what).refine(oneLine, `${what} must be one line (no line breaks)`);
/** Like `line`, but may be empty (the field is then left out of the letterhead). */
const optionalLine = (max: number, what: string) => plain(what).trim()
  .max(max, `${what} has at most ${max} characters`).refine(oneLine, `${what} must be one line (no line breaks)`);

/** #rrggbb; upper-case input is accepted and stored lower-case (the table's check wants lower-case). */
const Color = (what: string) => z.string({ error: `${what} must be a colour #rrggbb` })
  .regex(/^#[0-9a-fA-F]{6}$/, `${what} must be a colour #rrggbb (e.g. #c0392b)`).transform((c) => c.toLowerCase());

const footerLines = (s: string) => s.split(/\r\n|\r|\n/).length <= letterheadLimits.footerLines;

const fields = {
  name: line(letterheadLimits.name, 'name').describe(`Unique in the guild, 1 to ${letterheadLimits.name} characters, one line.`),
  organisation: optionalLine(letterheadLimits.organisation, 'organisation').describe(`Printed large at the top; at most ${letterheadLimits.organisation} characters, one line; empty for none.`),
  addressLines: z.array(line(letterheadLimits.addressLine, 'each address line'), { error: 'addressLines must be a list of strings' })
    .max(letterheadLimits.addressLines, `addressLines has at most ${letterheadLimits.addressLines} lines`)
    .describe(`Up to ${letterheadLimits.addressLines} lines of at most ${letterheadLimits.addressLine} characters each, none empty.`),
  logoUploadId: UploadId.nullable().describe('An upload of this guild (POST /uploads) shown as the logo; null for none.'),
  primaryColor: Color('primaryColor').describe('Organisation and name; #rrggbb, default #c0392b.'),
  secondaryColor: Color('secondaryColor').describe('The rule under the head; #rrggbb, default #2c3e50.'),
  footer: plain('footer').trim().max(letterheadLimits.footer, `footer has at most ${letterheadLimits.footer} characters`)
    .refine(footerLines, `footer has at most ${letterheadLimits.footerLines} lines`)
    .describe(`Printed at the bottom of the page; at most ${letterheadLimits.footer} characters in ${letterheadLimits.footerLines} lines; empty for none.`),
};

export const CreateLetterhead = z.strictObject({
  name: fields.name,
  organisation: fields.organisation.optional(),
  addressLines: fields.addressLines.optional(),
  logoUploadId: fields.logoUploadId.optional(),
  primaryColor: fields.primaryColor.optional(),
  secondaryColor: fields.secondaryColor.optional(),
  footer: fields.footer.optional(),
});
export type CreateLetterhead = z.infer<typeof CreateLetterhead>;

const Version = z.number({ error: 'version must be a whole number' }).int('version must be a whole number')
  .min(1, 'version must be at least 1').max(2_147_483_647, 'version is too large');

export const UpdateLetterhead = z.strictObject({
  id: LetterheadId,
  version: Version.describe('The version you read; a stale one is 409.'),
  name: fields.name.optional(),
  organisation: fields.organisation.optional(),
  addressLines: fields.addressLines.optional(),
  logoUploadId: fields.logoUploadId.optional().describe('An upload of this guild; null removes the logo.'),
  primaryColor: fields.primaryColor.optional(),
  secondaryColor: fields.secondaryColor.optional(),
  footer: fields.footer.optional(),
});
export type UpdateLetterhead = z.infer<typeof UpdateLetterhead>;
export type LetterheadChanges = Omit<UpdateLetterhead, 'id' | 'version'>;

export const IdParam = z.strictObject({ id: LetterheadId });

export const Reorder = z.strictObject({
  ids: z.array(recordId('each of ids'), { error: 'ids must be a list of letterhead ids' })
    .max(MAX_LETTERHEADS, `ids has at most ${MAX_LETTERHEADS} entries`)
    .describe('Every letterhead of the guild, each once, in the new order.'),
});

export const PreviewParams = z.strictObject({
  id: LetterheadId,
  width: z.union([z.number(), z.string().regex(/^[0-9]{1,5}$/).transform(Number)], { error: `width must be a whole number from ${PREVIEW_WIDTH.min} to ${PREVIEW_WIDTH.max}` })
    .pipe(z.number().int().min(PREVIEW_WIDTH.min, `width must be at least ${PREVIEW_WIDTH.min}`).max(PREVIEW_WIDTH.max, `width must be at most ${PREVIEW_WIDTH.max}`))
    .optional().describe(`Image width in pixels, ${PREVIEW_WIDTH.min} to ${PREVIEW_WIDTH.max}, default ${PREVIEW_WIDTH.default} (A4 at 150 dpi); the height is half the width.`),
  v: z.string().regex(/^[A-Za-z0-9_.-]{1,32}$/, 'v must be 1 to 32 letters, digits, _ . or -').optional()
    .describe('Ignored by the server: previewUrl carries the version, so an edited letterhead gets a fresh image past caches.'),
  guild: z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, 'guild is not a valid guild id').optional()
    .describe('For a signed-in browser\'s <img src>: the guild, instead of the x-guild-id header (must match it when both are sent).'),
});

export const Letterhead = z.object({
  id: RecordIdOut,
  name: z.string(),
  organisation: z.string(),
  addressLines: z.array(z.string()),
  logoUploadId: RecordIdOut.nullable(),
  logoUrl: z.string().nullable().describe('The logo image (GET /uploads/{id}, needs settings.manage); the preview shows it to everyone else.'),
  primaryColor: z.string(),
  secondaryColor: z.string(),
  footer: z.string(),
  position: z.number().int().describe('0 for the first; contiguous 0..n-1.'),
  version: z.number().int(),
  createdAt: z.date(),
  updatedAt: z.date(),
  previewUrl: z.string().describe('The preview PNG from the server root, usable as it is in an <img src> by a signed-in browser.'),
});
export type Letterhead = z.infer<typeof Letterhead>;

export const LetterheadList = z.object({ letterheads: z.array(Letterhead).describe('In order (position).') });
export const Deleted = z.object({ deleted: z.object({ id: RecordIdOut, name: z.string() }), letterheads: z.array(Letterhead).describe('The rest, in order.') });
export const Png = z.object({ contentType: z.literal('image/png'), base64: z.string() });
