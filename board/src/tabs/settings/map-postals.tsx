import { useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { mapText } from './map-words.ts';

type Postal = { code: string; x: number; y: number };

/** Centimetres are plenty, and keep a 20,000-entry file under the board's 1 MiB request. */
const cm = (v: unknown) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v);

/**
 * The entries of a FiveM postal file (`[{code, x, y}]`, or already wrapped as `{postals: […]}`),
 * taken as they are apart from rounding: the server checks every entry and names what is wrong.
 */
function entriesOf(text: string): Postal[] | 'notJson' | 'notList' {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return 'notJson';
  }
  const list = Array.isArray(data) ? data : (data as { postals?: unknown } | null)?.postals;
  if (!Array.isArray(list)) return 'notList';
  return list.map((p) => (p && typeof p === 'object' ? { ...p, x: cm((p as Postal).x), y: cm((p as Postal).y) } : p)) as Postal[];
}

/** The postal layer: a file read here, its count shown, then replace (or clear) the stored layer. */
export function MapPostals({ count, onChanged }: { count: number; onChanged: () => void }) {
  const t = mapText();
  const [file, setFile] = useState<Postal[] | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const action = useAction();
  const read = async (e: Event) => {
    const input = e.target as HTMLInputElement;
    const chosen = input.files?.[0];
    action.clear();
    setFile(null);
    setFileError(null);
    if (!chosen) return;
    const entries = entriesOf(await chosen.text());
    if (typeof entries === 'string') setFileError(t[entries]);
    else setFile(entries);
  };
  const send = async (postals: Postal[], ok: (n: number) => string) => {
    const r = await action.run(() => api.map.setPostals.mutate({ postals }), (res) => ok(res.postals));
    if (r) {
      setFile(null);
      onChanged();
    }
    setAsking(false);
  };
  return (
    <div id="map-postals" class="map-postals">
      <h3>{t.postalsTitle}</h3>
      <p class="muted">{t.postalsIntro}</p>
      <p id="map-postals-count"><strong>{t.postalsNow(count)}</strong></p>
      <label class="map-file">{t.file}<input id="map-postals-file" type="file" accept=".json,application/json" onChange={read} /></label>
      {fileError && <p id="map-postals-file-error" class="error" role="alert">{fileError}</p>}
      {file && <p id="map-postals-in-file">{t.inFile(file.length)}</p>}
      <div class="row">
        <button id="map-postals-replace" type="button" class="primary" disabled={!file || action.busy}
          onClick={() => file && void send(file, t.replaced)}>{t.replace}</button>
        {count > 0 && !asking && <button id="map-postals-clear" type="button" class="danger" disabled={action.busy} onClick={() => setAsking(true)}>{t.clear}</button>}
        {asking && (
          <span class="confirm" role="group" aria-label={t.clearConfirm}>
            <span class="confirm-q">{t.clearConfirm}</span>
            <button id="map-postals-clear-confirm" type="button" class="danger small" disabled={action.busy} onClick={() => void send([], () => t.cleared)}>{t.yes}</button>
            <button id="map-postals-clear-cancel" type="button" class="small" onClick={() => setAsking(false)}>{t.cancel}</button>
          </span>
        )}
      </div>
      <Result id="map-postals-result" action={action} />
    </div>
  );
}
