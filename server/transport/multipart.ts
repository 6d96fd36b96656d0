import busboy from 'busboy';
import { AppError } from '../core/errors.ts';
import type { Reply } from './http.ts';

/** A `rest.multipart` route's body rule: one file part named `field`, at most `maxBytes` of file. */
export interface MultipartRule { field: string; maxBytes: number; maxBodyBytes: number }

/** The one file of a multipart body, as the client sent it: the name and type are only what it claims. */
export interface ReceivedFile { name: string; declaredType: string; data: Buffer }

/** A multipart read in progress: `file` settles once; `stop()` ends it early (nothing more is kept). */
export interface MultipartRead { file: Promise<ReceivedFile>; stop(reason: unknown): void }

/** A name decoded from UTF-16 bytes (filename*=utf-16le''…) can hold one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const isMultipart = (ct: string | undefined) => ct !== undefined && /^multipart\/form-data\s*(;|$)/i.test(ct);

/**
 * Reads a multipart/form-data body that must hold exactly one file part named `rule.field`, parsed
 * by busboy while it streams in. Guarantees:
 * - the body is counted in onData: past `maxBodyBytes` of body or `maxBytes` of file the read fails
 *   with 413 at once and every later chunk is dropped unread (never buffered, whatever the client sends);
 * - at most the file's own bytes are kept (busboy holds a part header, never the body);
 * - 415 for a body that is not multipart/form-data; 400 for a missing or wrong boundary, a truncated
 *   body, a missing or empty file, a second file, or any other field (a strict form: a field the
 *   server does not read is a client mistake, as an unknown JSON key is);
 * - 400 for a file name that is not UTF-8 (busboy decodes it to U+FFFD, which is refused: a
 *   name holding U+FFFD itself cannot be told from it and is refused too);
 * - the read fails when the connection closes before the body is complete (nothing waits forever).
 * Must be called before the handler's first await (uWS delivers the body to onData only then).
 */
export function readMultipartFile(reply: Reply, headers: Record<string, string>, rule: MultipartRule): MultipartRead {
  let settled = false;
  let parser: busboy.Busboy | null = null;
  let resolveFile!: (f: ReceivedFile) => void;
  let rejectFile!: (e: unknown) => void;
  const file = new Promise<ReceivedFile>((res, rej) => {
    resolveFile = res;
    rejectFile = rej;
  });
  const fail = (err: AppError) => {
    if (settled) return;
    settled = true;
    parser?.removeAllListeners();
    parser?.on('error', () => {}); // a late error of a dropped parser is nobody's answer
    parser = null;
    rejectFile(err);
  };
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `the file is larger than ${rule.maxBytes} bytes (${rule.maxBytes / 1048576} MiB)`);
  const read: MultipartRead = { file, stop: (reason) => fail(reason as AppError) };
  file.catch(() => {}); // a read stopped early is awaited by nobody
  reply.whenGone(() => fail(new AppError('BAD_REQUEST', 'the connection closed before the body was complete')));

  const contentType = headers['content-type'];
  if (!isMultipart(contentType)) {
    fail(new AppError('UNSUPPORTED_MEDIA_TYPE', `send the file as Content-Type: multipart/form-data with the field "${rule.field}"`));
    return read;
  }
  const declared = headers['content-length'];
  if (declared !== undefined && Number(declared) > rule.maxBodyBytes) {
    fail(tooLarge());
    return read;
  }
  try {
    // busboy reports 'limit' when a file reaches `fileSize`: one byte over the limit is the refusal.
    parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', limits: { fileSize: rule.maxBytes + 1, files: 2, fields: 1, parts: 3, headerPairs: 20 } });
  } catch {
    fail(new AppError('BAD_REQUEST', 'Content-Type multipart/form-data needs a boundary parameter'));
    return read;
  }

  const chunks: Buffer[] = [];
  let size = 0;
  let name: string | null = null;
  let declaredType = '';
  let fileDone = false;
  let formDone = false;
  const finish = () => {
    if (settled || !fileDone || !formDone) return;
    if (name === null) return fail(new AppError('BAD_REQUEST', `the form has no file field "${rule.field}"`));
    if (size === 0) return fail(new AppError('BAD_REQUEST', 'the file is empty'));
    settled = true;
    resolveFile({ name, declaredType, data: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size) });
  };

  parser.on('file', (fieldName, stream, info) => {
    if (fieldName !== rule.field) return fail(new AppError('BAD_REQUEST', `unknown form field "${fieldName}"; send only the file field "${rule.field}"`));
    if (name !== null) return fail(new AppError('BAD_REQUEST', `send one file only (the field "${rule.field}" came twice)`));
    name = info.filename ?? '';
    if (name.includes('\uFFFD') || LONE_SURROGATE.test(name)) return fail(new AppError('BAD_REQUEST', 'the file name is not valid UTF-8; send it as UTF-8 (filename="…" or filename*=UTF-8\'\'…)'));
    declaredType = info.mimeType;
    stream.on('data', (d: Buffer) => {
      size += d.length;
      chunks.push(d);
    });
    stream.on('limit', () => fail(tooLarge()));
    stream.on('error', () => fail(new AppError('BAD_REQUEST', 'the multipart body ends inside the file (truncated upload)')));
    stream.on('end', () => {
      fileDone = true;
      finish();
    });
  });
  parser.on('field', (fieldName) => fail(new AppError('BAD_REQUEST', fieldName === rule.field
    ? `"${rule.field}" must be a file part (with a filename), not a text field`
    : `unknown form field "${fieldName}"; send only the file field "${rule.field}"`)));
  parser.on('filesLimit', () => fail(new AppError('BAD_REQUEST', 'send one file only')));
  parser.on('fieldsLimit', () => fail(new AppError('BAD_REQUEST', `send only the file field "${rule.field}"`)));
  parser.on('partsLimit', () => fail(new AppError('BAD_REQUEST', `send only the file field "${rule.field}"`)));
  parser.on('error', (err: Error) => fail(new AppError('BAD_REQUEST', `the body is not a complete multipart/form-data form (${err.message}; is the boundary the one in Content-Type?)`)));
  parser.on('close', () => {
    formDone = true;
    if (name === null) fileDone = true;
    finish();
  });

  let bodySize = 0;
  reply.res.onData((chunk, isLast) => {
    if (settled || !parser) return;
    bodySize += chunk.byteLength;
    if (bodySize > rule.maxBodyBytes) return fail(tooLarge());
    // uWS neuters the chunk after this callback; busboy keeps slices of it, so it gets a copy.
    parser.write(Buffer.from(chunk.slice(0)));
    if (isLast && parser) {
      reply.hold();
      parser.end();
    }
  });
  return read;
}

/**
 * `Content-Disposition: inline` naming `name` for a download: an ASCII fallback without quotes,
 * backslashes or control characters (nothing can end the header or add one), and the exact name as
 * RFC 5987 `filename*` (percent-encoded UTF-8, which a browser prefers).
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_').trim() || 'upload';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
