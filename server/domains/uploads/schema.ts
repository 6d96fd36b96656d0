import { z } from 'zod';
import { recordId, RecordIdOut } from '../../core/record-id.ts';
import { imageTypes } from './image.ts';
import { MAX_UPLOAD_BYTES } from '../../../contract/limits.ts';

/** The whole multipart body: the file plus room for the boundaries and part headers. */
export const MAX_UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;
/** An upload id: a string of digits (a number is taken too); see recordId. */
export const UploadId = recordId('id');

/**
 * The received file. Only the REST door's multipart reader makes a Buffer (JSON and superjson cannot),
 * so /trpc cannot deliver one; whatever arrives is checked from its bytes all the same.
 */
export const UploadFile = z.strictObject({
  file: z.strictObject({
    name: z.string().max(10_000),
    data: z.custom<Buffer>((v) => Buffer.isBuffer(v), { message: 'send the file as multipart/form-data (field "file") to POST /api/v1/uploads; it cannot travel over /trpc' }),
  }, { error: 'send the file as multipart/form-data (field "file") to POST /api/v1/uploads' }),
});

export const UploadParams = z.strictObject({ id: UploadId });
export const UploadImageParams = z.strictObject({
  id: UploadId,
  guild: z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, 'guild is not a valid guild id').optional()
    .describe('The guild, for a session without the x-guild-id header (an <img src> cannot send one). The `url` of each upload carries it.'),
});

export const Upload = z.object({
  id: RecordIdOut,
  name: z.string().describe('The file name as uploaded, cleaned for display (no directories or control characters). Never a path, never the type.'),
  contentType: z.enum(imageTypes).describe('Decided from the bytes, not from the name or the client\'s header.'),
  size: z.number().int().describe('Bytes.'),
  width: z.number().int(),
  height: z.number().int(),
  createdAt: z.date(),
  createdBy: z.object({ kind: z.enum(['session', 'key', 'system']), id: z.string() }).describe('A session (Discord user id) or an API key (its id).'),
  url: z.string().describe('Path of the image from the server root (`/api/v1/uploads/{id}?guild={guildId}`), usable in an <img src> by a signed-in browser with settings.manage.'),
});
export type Upload = z.infer<typeof Upload>;

export const UploadList = z.object({ uploads: z.array(Upload).describe('Newest first; never the bytes.') });
export const UploadImage = z.object({ contentType: z.enum(imageTypes), base64: z.string(), filename: z.string() });
export const DeleteResult = z.object({
  deleted: z.literal(true),
  id: RecordIdOut,
  clearedLetterheadLogos: z.number().int().describe('Letterheads that used this upload as their logo and now have none.'),
});
