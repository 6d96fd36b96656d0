import { useRef, useState } from 'preact/hooks';
import { api, messageOf } from '../../app/api.ts';
import { dateTime, lang } from '../../app/i18n.ts';
import { guild, signedOut } from '../../app/session.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { ConfirmDelete } from '../settings/confirm.tsx';
import { fileSize, loadUploads, uploads, uploadsError, type Upload } from './state.ts';
import { docText } from './strings.ts';
import { uploadFile } from './upload-file.ts';
import { MAX_UPLOAD_BYTES } from '../../../../contract/limits.ts';


/** The state of the upload in flight, or of the last one. */
type Sending = { name: string; share: number } | null;

/**
 * Sends the dropped or picked file and says the outcome in place. Too large, wrong type and empty
 * are the server's verdicts (413, 415, 400 — it decides the type from the bytes), told in the board's
 * language; anything else is the server's own message.
 */
function useUpload() {
  const t = docText().uploads;
  const [sending, setSending] = useState<Sending>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  async function send(file: File) {
    const g = guild.peek();
    if (!g || sending) return;
    setOutcome(null);
    setSending({ name: file.name, share: 0 });
    const r = await uploadFile<Upload>(g.guildId, file, (share) => setSending({ name: file.name, share }));
    setSending(null);
    if (r.ok) {
      setOutcome({ ok: true, text: t.uploaded(r.upload.name) });
      void loadUploads();
      return;
    }
    if (r.status === 401) signedOut('expired');
    const text = r.status === 413 || (r.status === 0 && file.size > MAX_UPLOAD_BYTES) ? t.tooLarge
      : r.status === 415 ? t.wrongType
      : r.status === 400 && file.size === 0 ? t.empty
      : r.status === 0 ? t.failed : messageOf(new Error(r.error));
    setOutcome({ ok: false, text });
  }
  return { sending, outcome, send, say: setOutcome };
}

function DropZone({ onFile, busy }: { onFile: (f: File) => void; busy: boolean }) {
  const t = docText().uploads;
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const take = (files: FileList | null | undefined) => { const f = files?.[0]; if (f) onFile(f); };
  return (
    <div id="upload-drop" class={over ? 'dropzone over' : 'dropzone'}
      onDragOver={(e) => { e.preventDefault(); setOver(true); }} onDragLeave={() => setOver(false)}
      onDrop={(e) => { e.preventDefault(); setOver(false); if (!busy) take(e.dataTransfer?.files); }}>
      <span>{t.drop}</span>
      <button id="upload-pick" type="button" class="primary" disabled={busy} onClick={() => input.current?.click()}>{t.pick}</button>
      <input ref={input} id="upload-input" type="file" class="sr-only" tabIndex={-1} aria-label={t.pick}
        accept="image/png,image/jpeg,image/webp,image/gif"
        onChange={(e) => { const el = e.target as HTMLInputElement; take(el.files); el.value = ''; }} />
    </div>
  );
}

/** One image; its deletion is told by the card (the row itself goes away). */
function UploadRow({ u, onDeleted }: { u: Upload; onDeleted: (text: string) => void }) {
  const t = docText().uploads;
  const action = useAction();
  const remove = async () => {
    const r = await action.run(() => api.uploads.delete.mutate({ id: u.id }));
    if (!r) return;
    onDeleted(r.clearedLetterheadLogos ? `${t.deleted(u.name)} ${t.logosCleared(r.clearedLetterheadLogos)}` : t.deleted(u.name));
    void loadUploads();
  };
  return (
    <li class="upload" data-upload-id={u.id} data-upload-name={u.name}>
      <img class="thumb" src={u.url} alt={t.image(u.name)} loading="lazy" width={u.width} height={u.height} />
      <div class="upload-meta">
        <strong class="upload-name">{u.name}</strong>
        <span class="muted">{u.width} × {u.height} px · {fileSize(u.size, lang.value)} · {dateTime(new Date(u.createdAt).getTime())}</span>
        <span class="row">
          <ConfirmDelete idPrefix={`upload-${u.id}`} label={t.delete} what={t.image(u.name)} busy={action.busy} onConfirm={remove} />
        </span>
        <Result id={`upload-${u.id}-result`} action={action} />
      </div>
    </li>
  );
}

/** Bilder: upload by drag and drop or the file picker (with progress), the guild's images, delete. */
export function UploadsCard() {
  const t = docText().uploads;
  const { sending, outcome, send, say } = useUpload();
  const list = uploads.value;
  return (
    <section id="documents-uploads" class="card" aria-labelledby="uploads-title">
      <h2 id="uploads-title">{t.title} {list && <span class="pill">{list.length}</span>}</h2>
      <p class="muted">{t.intro}</p>
      <DropZone onFile={(f) => void send(f)} busy={!!sending} />
      {sending && (
        <div class="upload-progress">
          <span>{t.uploading(sending.name)}</span>
          <progress id="upload-progress" max={1} value={sending.share} aria-label={t.progress} />
        </div>
      )}
      <div id="upload-result" class={outcome && !outcome.ok ? 'result error' : 'result ok'} role="status" aria-live="polite">{outcome?.text ?? ''}</div>
      {uploadsError.value && <p class="error">{uploadsError.value}</p>}
      {!list ? <p class="muted">{t.loading}</p> : !list.length ? <p class="muted" id="uploads-none">{t.none}</p> : (
        <ul id="upload-list" class="uploads">{list.map((u) => <UploadRow key={u.id} u={u} onDeleted={(text) => say({ ok: true, text })} />)}</ul>
      )}
    </section>
  );
}
