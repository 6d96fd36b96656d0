/**
 * Files sent with a message as Discord takes them: multipart/form-data with `payload_json` and one
 * part per file (`files[n]`, n being the id that `attachments[].id` refers to), checked as Discord
 * checks them, and embeds' `attachment://<filename>` urls resolved to the files' CDN urls.
 */
import { DiscordError, invalidForm, type UploadedFile } from './http.ts';
import { imageSize, imageType } from './images.ts';
import { snowflake, type StandInAttachment } from './state.ts';

/** Discord's limit per file in a server without boosts (the interaction's attachment_size_limit). */
export const ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024;
/** Files per message. */
export const MAX_ATTACHMENTS = 10;
/** Alt text of an attachment. */
const MAX_DESCRIPTION = 1024;

type Problem = { path: Array<string | number>; code: string; message: string };

const tooLarge = () => new DiscordError(413, { message: 'Request entity too large', code: 40005 });

/**
 * The message's attachments after a create (`current` null) or an edit. Without `attachments` in
 * the JSON, every uploaded file is added (to what the message has). With it, as Discord's v10 edit
 * rule says, the message keeps exactly the listed ones: existing attachments by their id, new
 * files by their `files[n]` id (a create also keeps unlisted uploads). A listed id that names
 * neither is 400 ATTACHMENT_NOT_FOUND; a file over the size limit is 413 (40005).
 */
export function attachmentsAfter(files: UploadedFile[], body: any, current: StandInAttachment[] | null): StandInAttachment[] {
  const problems: Problem[] = [];
  const uploads = new Map<string, UploadedFile>();
  files.forEach((f, i) => uploads.set(/^files\[(\d+)\]$/.exec(f.field)?.[1] ?? String(i), f));
  for (const f of files) if (f.data.length > ATTACHMENT_SIZE_LIMIT) throw tooLarge();

  const make = (f: UploadedFile, meta: any, path: Problem['path']): StandInAttachment => {
    const filename = meta?.filename ?? f.filename;
    if (typeof filename !== 'string' || filename.length === 0) problems.push({ path: [...path, 'filename'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
    const description = meta?.description ?? null;
    if (description !== null && (typeof description !== 'string' || [...description].length > MAX_DESCRIPTION)) {
      problems.push({ path: [...path, 'description'], code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_DESCRIPTION} or fewer in length.` });
    }
    const type = imageType(f.data);
    return {
      id: snowflake(), filename: String(filename ?? ''), description, size: f.data.length, data: f.data,
      contentType: type !== 'application/octet-stream' ? type : f.contentType, ...(imageSize(f.data) ?? {}),
    };
  };

  const described = body?.attachments;
  let result: StandInAttachment[];
  if (described === undefined || described === null) {
    result = [...(current ?? []), ...[...uploads.values()].map((f, i) => make(f, null, ['files', i]))];
  } else if (!Array.isArray(described)) {
    throw invalidForm([{ path: ['attachments'], code: 'BASE_TYPE_BAD_TYPE', message: 'Must be an array.' }]);
  } else {
    result = [];
    const used = new Set<string>();
    described.forEach((a: any, i: number) => {
      if (!a || typeof a !== 'object') return problems.push({ path: ['attachments', i], code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' });
      const id = String(a.id);
      const upload = uploads.get(id);
      const existing = current?.find((x) => x.id === id);
      if (upload && !used.has(id)) {
        used.add(id);
        result.push(make(upload, a, ['attachments', i]));
      } else if (existing) {
        result.push(existing);
      } else {
        problems.push({ path: ['attachments', i], code: 'ATTACHMENT_NOT_FOUND', message: 'Attachment data not found' });
      }
    });
    if (current === null) for (const [id, f] of uploads) if (!used.has(id)) result.push(make(f, null, ['files', id]));
  }
  if (result.length > MAX_ATTACHMENTS) problems.push({ path: ['attachments'], code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_ATTACHMENTS} or fewer in length.` });
  if (problems.length) throw invalidForm(problems);
  return result;
}

/**
 * Embed media naming `attachment://<filename>` show that attachment: Discord stores them with the
 * file's CDN url (and an image's size). A name that matches no attachment stays as sent, and a
 * Discord client would show no image: tests can tell by the url.
 */
export function resolveEmbedFiles(embeds: any[], attachments: StandInAttachment[], urlOf: (a: StandInAttachment) => string): any[] {
  const resolve = (media: any) => {
    const name = typeof media?.url === 'string' && media.url.startsWith('attachment://') ? media.url.slice('attachment://'.length) : null;
    const a = name === null ? undefined : attachments.find((x) => x.filename === name);
    if (!a) return media;
    const url = urlOf(a);
    return { ...media, url, proxy_url: url, content_type: a.contentType, ...(a.width !== undefined ? { width: a.width, height: a.height } : {}) };
  };
  return embeds.map((e) => ({
    ...e,
    ...(e?.image ? { image: resolve(e.image) } : {}),
    ...(e?.thumbnail ? { thumbnail: resolve(e.thumbnail) } : {}),
  }));
}
