import { z } from 'zod';
import { trimmed } from '../../core/text.ts';
import { recordId, RecordIdOut } from '../../core/record-id.ts';
import { callLimits } from '../../../contract/limits.ts';
import { positionLimits } from '../../../contract/positions.ts';
import { mapLimits } from '../../../contract/map.ts';

const coordinate = (axis: string) => z.number({ error: `${axis} must be a number` })
  .min(-positionLimits.coordinate, `${axis} must be at least -${positionLimits.coordinate}`)
  .max(positionLimits.coordinate, `${axis} must be at most ${positionLimits.coordinate}`);
const pixel = (axis: string) => z.number({ error: `${axis} must be a number (pixels of the image)` })
  .min(0, `${axis} must be at least 0 (pixels from the image's ${axis === 'px' ? 'left' : 'top'} edge)`)
  .max(mapLimits.imageSide, `${axis} must be at most ${mapLimits.imageSide}`);

/** One known place: where it is on the image (pixels from the top left corner) and in the game. */
export const CalibrationPoint = z.strictObject({
  px: pixel('px').describe('Pixels from the image\'s left edge (fractions allowed).'),
  py: pixel('py').describe('Pixels from the image\'s top edge (fractions allowed).'),
  x: coordinate('x').describe('Game x of that place.'),
  y: coordinate('y').describe('Game y of that place.'),
});
export type CalibrationPoint = z.infer<typeof CalibrationPoint>;

export const Calibration = z.strictObject({
  points: z.array(CalibrationPoint, { error: 'calibration.points must be an array of two points {px, py, x, y}' })
    .length(2, 'calibration.points must hold exactly two points {px, py, x, y}'),
}, { error: 'calibration must be an object {points: [{px, py, x, y}, {px, py, x, y}]} or null' })
  .describe('Two known places. Per axis linear (x→px, y→py; no rotation, as GTA maps are drawn): the points must differ by at least 1 in px, py, x and y. The scale sign follows from the points (game y grows up, pixels down: flipped).');
export type Calibration = z.infer<typeof Calibration>;

const staleRule = `staleAfterSeconds must be a whole number from ${mapLimits.staleAfterSeconds.min} to ${mapLimits.staleAfterSeconds.max}`;

export const PutMap = z.strictObject({
  imageUploadId: recordId('imageUploadId').nullable().optional()
    .describe('An image of GET /uploads of this guild; null: no image (the board draws a coordinate grid). A new image clears the calibration unless one is sent with it.'),
  calibration: Calibration.nullable().optional().describe('Two points on the map\'s image; null clears it. Needs an image (sent or stored).'),
  staleAfterSeconds: z.number({ error: staleRule }).int(staleRule).min(mapLimits.staleAfterSeconds.min, staleRule).max(mapLimits.staleAfterSeconds.max, staleRule).optional()
    .describe(`After how many seconds without news a unit's position is stale (greyed, not used for "nearest first"). Default ${mapLimits.staleAfterSeconds.default}.`),
}).refine((p) => p.imageUploadId !== undefined || p.calibration !== undefined || p.staleAfterSeconds !== undefined,
  'send at least one of imageUploadId, calibration, staleAfterSeconds');

export const MapSettings = z.object({
  image: z.object({
    uploadId: RecordIdOut,
    url: z.string().describe('Path of the image from the server root (GET /api/v1/map/image?guild=…&v=<uploadId>): an <img src> for every board with dispatch.view.'),
    width: z.number().int(),
    height: z.number().int(),
  }).nullable().describe('null: no image; the board draws a labelled coordinate grid.'),
  calibration: z.object({ points: z.array(z.object({ px: z.number(), py: z.number(), x: z.number(), y: z.number() })) }).nullable()
    .describe('null: not calibrated (always null without an image).'),
  staleAfterSeconds: z.number().int(),
  postals: z.number().int().describe('How many postal codes the layer holds (GET /map/postals).'),
});
export type MapSettings = z.infer<typeof MapSettings>;

export const MapImageParams = z.strictObject({
  guild: z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, 'guild is not a valid guild id').optional()
    .describe('The guild, for a session without the x-guild-id header (an <img src> cannot send one).'),
  v: z.string().regex(/^[0-9]{1,15}$/, 'v must be digits').optional().describe('The upload id, so a new image gets a new URL (caches).'),
});
export const MapImage = z.object({ contentType: z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/gif']), base64: z.string(), filename: z.string() });

/** A postal code as FiveM postal resources ship it: a string ("101"); a whole number is taken too. */
const PostalCode = z.union([
  trimmed(callLimits.postal, 'code', `code must be a string of 1 to ${callLimits.postal} characters`),
  z.number({ error: 'code must be a string' }).int('code must be a string').min(0, 'code must be a string').transform(String),
]).pipe(z.string().max(callLimits.postal, `code has at most ${callLimits.postal} characters`));

export const Postal = z.strictObject({
  code: PostalCode.describe(`1 to ${callLimits.postal} characters, unique in any case.`),
  x: coordinate('x'),
  y: coordinate('y'),
}, { error: 'each postal must be an object {code, x, y}' });

export const PutPostals = z.strictObject({
  postals: z.array(Postal, { error: 'postals must be an array of {code, x, y} (the file of a FiveM postal resource)' })
    .max(mapLimits.postals, `postals has at most ${mapLimits.postals} entries`)
    .describe(`The whole layer, as a FiveM postal resource ships it ([{code, x, y}]); replaces the stored one; [] clears it. At most ${mapLimits.postals}, codes unique in any case.`),
});

export const PostalList = z.object({ postals: z.array(z.object({ code: z.string(), x: z.number(), y: z.number() })).describe('Sorted by code (numbers in numeric order).') });
export const PostalsSet = z.object({ postals: z.number().int().describe('How many the layer holds now.') });
