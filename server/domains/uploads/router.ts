import { guildProcedure, router } from '../../trpc/init.ts';
import * as s from './schema.ts';
import { MAX_UPLOAD_BYTES } from '../../../contract/limits.ts';
import { createUpload, deleteUpload, listUploads, uploadImage } from './service.ts';
import { requireOwnGuild } from '../../trpc/session.ts';

const MiB = MAX_UPLOAD_BYTES / 1048576;

export const uploadsRouter = router({
  list: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/uploads' }, tag: 'Allgemein',
      summary: 'The guild\'s uploaded images, newest first: id, name, type, size, dimensions, when and by whom, and the URL of each image. Never the bytes.',
      access: 'admin', capability: 'settings.manage', module: 'uploads',
    })
    .output(s.UploadList)
    .query(({ ctx }) => listUploads(ctx.deps, ctx.guildId)),

  create: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/uploads', multipart: { field: 'file', maxBytes: MAX_UPLOAD_BYTES, maxBodyBytes: s.MAX_UPLOAD_BODY_BYTES } }, tag: 'Allgemein',
      summary: `Uploads an image (for letterheads and branding) as multipart/form-data with one file field \`file\`, at most ${MiB} MiB (${MAX_UPLOAD_BYTES} bytes; "5 MB" is read as 5 MiB). `
        + 'The type is decided from the bytes: PNG, JPEG, WebP or GIF; the file name and the part\'s Content-Type decide nothing. '
        + 'The size is counted while the body streams in: a larger upload is refused with 413 as soon as it passes the limit. Stored whole or not at all.',
      access: 'admin', capability: 'settings.manage', module: 'uploads', audit: 'upload.create', topics: ['uploads'],
      errors: {
        400: 'No file field "file", an empty file, two files, another form field, a missing or wrong boundary, a truncated body, or an image whose content does not match its type.',
        413: `The file is larger than ${MiB} MiB.`,
        415: 'The body is not multipart/form-data, or the file is not a PNG, JPEG, WebP or GIF image (SVG is refused: it can carry script).',
      },
    })
    .input(s.UploadFile).output(s.Upload)
    .mutation(({ ctx, input }) => createUpload(ctx.deps, ctx.guildId, input.file, ctx.actor)),

  image: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/uploads/{id}', produces: 'image/*', cache: 'private, max-age=3600', guildQuery: true }, tag: 'Allgemein',
      summary: 'An uploaded image, byte for byte, with its stored type, `X-Content-Type-Options: nosniff` and an inline Content-Disposition naming the file. '
        + 'For a signed-in browser the guild comes from x-guild-id or the query parameter guild, so the upload\'s url works in an <img src>. Over REST the body is the image itself.',
      access: 'view', capability: 'settings.manage', module: 'uploads',
      errors: { 400: 'Bad id or guild, or guild and x-guild-id name different guilds.', 404: 'No such upload in this guild.' },
    })
    .input(s.UploadImageParams).output(s.UploadImage)
    .query(({ ctx, input }) => {
      requireOwnGuild(input.guild, ctx.guildId);
      return uploadImage(ctx.deps, ctx.guildId, input.id);
    }),

  delete: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/uploads/{id}' }, tag: 'Allgemein',
      summary: 'Deletes an upload. Letterheads that used it as their logo keep everything else and show no logo; the answer counts them.',
      access: 'admin', capability: 'settings.manage', module: 'uploads', audit: 'upload.delete', topics: ['uploads'],
      errors: { 404: 'No such upload in this guild.' },
    })
    .input(s.UploadParams).output(s.DeleteResult)
    .mutation(({ ctx, input }) => deleteUpload(ctx.deps, ctx.guildId, input.id, ctx.actor)),
});
