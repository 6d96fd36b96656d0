import { useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import type { In } from '../../app/types.ts';
import { Result, type useAction } from '../../ui/action.tsx';
import type { MapSettings, UploadRow } from './map-settings.tsx';
import { mapText } from './map-words.ts';

/** A point being set: where it was clicked on the image, and the game coordinates typed for it (as typed). */
interface Picked { px: number; py: number; x: string; y: string }

const fromStored = (map: MapSettings): [Picked | null, Picked | null] => {
  const [a, b] = map.calibration?.points ?? [];
  const one = (p: typeof a) => (p ? { px: p.px, py: p.py, x: String(p.x), y: String(p.y) } : null);
  return [one(a), one(b)];
};

/** An empty field stays NaN, so the server's message says which one is missing. */
const num = (v: string) => (v.trim() === '' ? NaN : Number(v.replace(',', '.')));

/**
 * The map image and its calibration: pick one of the guild's uploads, click two known places on
 * it (point 1, then point 2; a click moves the point chosen) and type their game x/y, save.
 */
export function MapCalibration({ map, uploads, onSaved, action }: {
  map: MapSettings; uploads: UploadRow[]; onSaved: (m: MapSettings) => void;
  /** Held by the card: a save re-mounts this form with the saved values, and its outcome stays shown. */
  action: ReturnType<typeof useAction>;
}) {
  const t = mapText();
  const [chosen, setChosen] = useState(map.image?.uploadId ?? '');
  const [points, setPoints] = useState<[Picked | null, Picked | null]>(() => fromStored(map));
  const [active, setActive] = useState<0 | 1>(points[0] && !points[1] ? 1 : 0);
  const [local, setLocal] = useState<string | null>(null);
  const upload = uploads.find((u) => u.id === chosen) ?? null;

  const choose = (id: string) => {
    setChosen(id);
    setPoints(id === map.image?.uploadId ? fromStored(map) : [null, null]);
    setActive(0);
    setLocal(null);
    action.clear();
  };
  const click = (e: MouseEvent) => {
    if (!upload) return;
    const img = e.currentTarget as HTMLImageElement;
    const r = img.getBoundingClientRect();
    const px = Math.min(upload.width, Math.max(0, ((e.clientX - r.left) / r.width) * upload.width));
    const py = Math.min(upload.height, Math.max(0, ((e.clientY - r.top) / r.height) * upload.height));
    const next = [...points] as typeof points;
    next[active] = { px: Math.round(px * 10) / 10, py: Math.round(py * 10) / 10, x: points[active]?.x ?? '', y: points[active]?.y ?? '' };
    setPoints(next);
    if (active === 0 && !next[1]) setActive(1);
  };
  const typed = (i: 0 | 1, field: 'x' | 'y') => (e: Event) => {
    const next = [...points] as typeof points;
    next[i] = { ...next[i]!, [field]: (e.target as HTMLInputElement).value };
    setPoints(next);
  };
  const save = async (body: In['map']['set'], ok: (m: MapSettings) => string) => {
    setLocal(null);
    const saved = await action.run(() => api.map.set.mutate(body), ok);
    if (saved) onSaved(saved);
  };
  const submit = (e: Event) => {
    e.preventDefault();
    if (!chosen) return void save({ imageUploadId: null }, () => t.savedNoImage);
    const set = points.filter(Boolean) as Picked[];
    if (set.length === 1) return setLocal(t.needBoth);
    const calibration = set.length === 2 ? { points: set.map((p) => ({ px: p.px, py: p.py, x: num(p.x), y: num(p.y) })) } : undefined;
    if (calibration?.points.some((p) => Number.isNaN(p.x) || Number.isNaN(p.y))) return setLocal(t.needBoth);
    void save({ imageUploadId: chosen, ...(calibration ? { calibration } : {}) }, (m) => t.savedImage(m.calibration !== null));
  };
  const stored = map.calibration?.points;
  return (
    <form id="map-image-form" onSubmit={submit} noValidate>
      <p id="map-calibration-now" class="muted">
        {stored ? t.calibrated(t.pointText(1, stored[0].px, stored[0].py, stored[0].x, stored[0].y), t.pointText(2, stored[1].px, stored[1].py, stored[1].x, stored[1].y)) : t.notCalibrated}
      </p>
      {uploads.length === 0 ? <p class="muted" id="map-no-uploads">{t.noUploads}</p> : (
        <label>{t.image}
          <select id="map-image" value={chosen} onChange={(e) => choose((e.target as HTMLSelectElement).value)}>
            <option value="">{t.noImage}</option>
            {uploads.map((u) => <option key={u.id} value={u.id}>{`${u.name} (${u.width}×${u.height})`}</option>)}
          </select>
        </label>
      )}
      {upload && (
        <>
          <p class="muted map-hint">{t.pickHint}</p>
          <div class="map-pick-choice" role="radiogroup">
            {([0, 1] as const).map((i) => (
              <button key={i} id={`map-pick-${i + 1}`} type="button" class={active === i ? 'small primary' : 'small'} aria-pressed={active === i}
                onClick={() => setActive(i)}>{t.pickPoint(i + 1)}</button>
            ))}
          </div>
          <div class="map-pick">
            <img id="map-pick-image" src={upload.url} alt={upload.name} draggable={false} onClick={click} />
            {points.map((p, i) => p && (
              <span key={i} id={`map-marker-${i + 1}`} class={`map-marker m${i + 1}`} aria-hidden="true"
                style={{ left: `${(p.px / upload.width) * 100}%`, top: `${(p.py / upload.height) * 100}%` }}>{i + 1}</span>
            ))}
          </div>
          <div class="map-points">
            {([0, 1] as const).map((i) => (
              <fieldset key={i} id={`map-point-${i + 1}`} class={active === i ? 'active' : ''}>
                <legend>{t.point(i + 1)}</legend>
                <span class="muted map-px" id={`map-point-${i + 1}-px`}>{points[i] ? t.pixel(points[i]!.px, points[i]!.py) : t.notPicked}</span>
                <div class="row">
                  <label>{t.gameX}<input id={`map-point-${i + 1}-x`} class="num" inputMode="decimal" disabled={!points[i]} value={points[i]?.x ?? ''} onInput={typed(i, 'x')} /></label>
                  <label>{t.gameY}<input id={`map-point-${i + 1}-y`} class="num" inputMode="decimal" disabled={!points[i]} value={points[i]?.y ?? ''} onInput={typed(i, 'y')} /></label>
                </div>
              </fieldset>
            ))}
          </div>
        </>
      )}
      <div class="row map-actions">
        <button id="map-image-save" type="submit" class="primary" disabled={action.busy}>{t.saveImage}</button>
        {stored && <button id="map-calibration-clear" type="button" disabled={action.busy}
          onClick={() => void save({ calibration: null }, () => t.calibrationCleared)}>{t.clearCalibration}</button>}
      </div>
      {local ? <div id="map-image-result" class="result error" role="status" aria-live="polite">{local}</div> : <Result id="map-image-result" action={action} />}
    </form>
  );
}
