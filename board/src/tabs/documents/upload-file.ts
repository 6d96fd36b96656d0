/** The outcome of one upload: the server's answer, or its status and `{ error }` message. */
export type UploadOutcome<T> = { ok: true; upload: T } | { ok: false; status: number; error: string };

/**
 * Sends one file as `multipart/form-data` (field `file`) to `POST /api/v1/uploads` with the session
 * cookie and the guild header — the same request any other client makes. XMLHttpRequest rather than
 * fetch because only it reports upload progress (`onProgress` gets 0…1). Never throws: a refused or
 * failed upload comes back as `{ ok: false, status, error }` (status 0: the network failed).
 */
export function uploadFile<T>(guildId: string, file: File, onProgress: (share: number) => void): Promise<UploadOutcome<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/v1/uploads');
    xhr.setRequestHeader('x-guild-id', guildId);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => { if (e.lengthComputable && e.total) onProgress(e.loaded / e.total); };
    xhr.onload = () => {
      let body: unknown = null;
      try { body = JSON.parse(xhr.responseText); } catch { /* not JSON: a proxy's page; the status decides */ }
      if (xhr.status >= 200 && xhr.status < 300) resolve({ ok: true, upload: body as T });
      else resolve({ ok: false, status: xhr.status, error: errorOf(body) ?? `HTTP ${xhr.status}` });
    };
    // A server that stops reading at the size limit may close the connection before the browser has
    // sent everything; the browser then reports a network error rather than the 413.
    xhr.onerror = () => resolve({ ok: false, status: xhr.status, error: '' });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

function errorOf(body: unknown): string | null {
  return typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : null;
}
