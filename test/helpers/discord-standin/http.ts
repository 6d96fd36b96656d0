import type { IncomingMessage, ServerResponse } from 'node:http';

/** A file of a multipart request (discord.js sends `files[n]` beside `payload_json`). */
export interface UploadedFile { field: string; filename: string; contentType: string; data: Buffer }

export interface ParsedBody { body: any; files: UploadedFile[]; invalid?: string }

const MAX_BODY = 25 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req) {
    size += (part as Buffer).length;
    if (size > MAX_BODY) throw Object.assign(new Error('body too large'), { status: 413 });
    parts.push(part as Buffer);
  }
  return Buffer.concat(parts);
}

/** JSON, form or multipart (with `payload_json`), as Discord accepts them. */
export function parseBody(raw: Buffer, contentType: string | undefined): ParsedBody {
  const type = (contentType ?? '').toLowerCase();
  if (raw.length === 0) return { body: null, files: [] };
  if (type.startsWith('multipart/form-data')) {
    const boundary = /boundary=("?)([^";]+)\1/i.exec(contentType ?? '')?.[2];
    if (!boundary) return { body: null, files: [], invalid: 'multipart body without a boundary' };
    return parseMultipart(raw, boundary);
  }
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return { body: Object.fromEntries(new URLSearchParams(raw.toString('utf8'))), files: [] };
  }
  try {
    return { body: JSON.parse(raw.toString('utf8')), files: [] };
  } catch {
    return { body: null, files: [], invalid: 'the body is not valid JSON' };
  }
}

function parseMultipart(raw: Buffer, boundary: string): ParsedBody {
  const delimiter = Buffer.from(`--${boundary}`);
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  let pos = raw.indexOf(delimiter);
  while (pos !== -1) {
    const start = pos + delimiter.length;
    if (raw.subarray(start, start + 2).toString() === '--') break;
    const next = raw.indexOf(delimiter, start);
    if (next === -1) break;
    const part = raw.subarray(start + 2, next - 2); // skip CRLF after the delimiter and before the next
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, headerEnd).toString('utf8');
    const data = part.subarray(headerEnd + 4);
    const name = /name="([^"]*)"/i.exec(headers)?.[1] ?? '';
    const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
    if (filename !== undefined) {
      const contentType = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1] ?? 'application/octet-stream';
      files.push({ field: name, filename, contentType, data: Buffer.from(data) });
    } else {
      fields[name] = data.toString('utf8');
    }
    pos = next;
  }
  let body: any = null;
  if (fields.payload_json !== undefined) {
    try {
      body = JSON.parse(fields.payload_json);
    } catch {
      return { body: null, files, invalid: 'payload_json is not valid JSON' };
    }
  }
  return { body, files };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (status === 204) {
    res.writeHead(204, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** An error answer as Discord's REST API gives one. */
export class DiscordError extends Error {
  constructor(readonly status: number, readonly body: Record<string, unknown>) {
    super(String(body.message ?? body.error));
  }
}

export const notFound = () => new DiscordError(404, { message: '404: Not Found', code: 0 });
export const unauthorized = () => new DiscordError(401, { message: '401: Unauthorized', code: 0 });
export const missingAccess = () => new DiscordError(403, { message: 'Missing Access', code: 50001 });
export const unknown = (what: 'Channel' | 'Guild' | 'Member' | 'Message' | 'Emoji' | 'User' | 'Webhook' | 'interaction' | 'application command', code: number) =>
  new DiscordError(404, { message: `Unknown ${what}`, code });

/** 400 Invalid Form Body with Discord's nested `errors` object (path → `_errors`). */
export function invalidForm(problems: Array<{ path: Array<string | number>; code: string; message: string }>): DiscordError {
  const errors: any = {};
  for (const p of problems) {
    let node = errors;
    for (const key of p.path) node = node[key] ??= {};
    (node._errors ??= []).push({ code: p.code, message: p.message });
  }
  return new DiscordError(400, { message: 'Invalid Form Body', code: 50035, errors });
}
