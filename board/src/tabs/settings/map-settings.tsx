import './map.css';
import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from '../../app/api.ts';
import { moduleOn } from '../../app/session.ts';
import type { Out } from '../../app/types.ts';
import { useFollowedSetting } from '../../ui/followed-setting.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { MapCalibration } from './map-calibrate.tsx';
import { MapPostals } from './map-postals.tsx';
import { mapText } from './map-words.ts';

export type MapSettings = Out['map']['get'];
export type UploadRow = Out['uploads']['list']['uploads'][number];

/**
 * Einstellungen → Karte: the map image (one of the guild's uploads) with its calibration by two
 * clicked points, the stale time of positions, and the postal layer. Follows changes made on other
 * boards (the `settings` notice `map`) unless a form here is being edited.
 */
export function MapSettingsCard() {
  const t = mapText();
  const on = moduleOn('dispatch');
  return (
    <section id="settings-map" class="card map-settings" aria-labelledby="map-title">
      <h2 id="map-title">{t.title}</h2>
      {!on ? <p class="muted" id="map-off">{t.off}</p> : <MapSettingsBody />}
    </section>
  );
}

function MapSettingsBody() {
  const t = mapText();
  const { value: map, setValue: setMap, loadError, reload } = useFollowedSetting(() => api.map.settings.query(), (op) => op.op === 'set' && op.key === 'map');
  const [uploads, setUploads] = useState<UploadRow[] | null>(null);
  const [uploadsError, setUploadsError] = useState<string | null>(null);
  const imageAction = useAction();
  useEffect(() => {
    api.uploads.list.query().then((r) => setUploads(r.uploads), (err) => { setUploads([]); setUploadsError(messageOf(err)); });
  }, [map?.image?.uploadId]);
  if (loadError) return <p class="error" role="alert">{loadError}</p>;
  if (!map || !uploads) return <p class="muted">{t.loading}</p>;
  return (
    <>
      <p class="muted">{t.intro}</p>
      <div class="map-cols">
        <div class="map-part">
          <h3>{t.imageTitle}</h3>
          {uploadsError && <p class="error" id="map-uploads-error">{t.uploadsOff}{uploadsError}</p>}
          <MapCalibration key={JSON.stringify([map.image?.uploadId, map.calibration])} map={map} uploads={uploads} onSaved={setMap} action={imageAction} />
        </div>
        <div class="map-part">
          <StaleTime map={map} onSaved={setMap} />
          <MapPostals count={map.postals} onChanged={() => void reload()} />
        </div>
      </div>
    </>
  );
}

function StaleTime({ map, onSaved }: { map: MapSettings; onSaved: (m: MapSettings) => void }) {
  const t = mapText();
  const [value, setValue] = useState<string | null>(null);
  const action = useAction();
  const shown = value ?? String(map.staleAfterSeconds);
  const submit = async (e: Event) => {
    e.preventDefault();
    const saved = await action.run(() => api.map.set.mutate({ staleAfterSeconds: shown.trim() === '' ? NaN : Number(shown) }), (r) => t.savedStale(r.staleAfterSeconds));
    if (!saved) return;
    onSaved(saved);
    setValue(null);
  };
  return (
    <form id="map-stale-form" class="map-stale" onSubmit={submit} noValidate>
      <h3>{t.staleTitle}</h3>
      <div class="row">
        <label>{t.stale}<input id="map-stale" class="num" type="number" inputMode="numeric" min={10} max={3600} value={shown}
          onInput={(e) => setValue((e.target as HTMLInputElement).value)} /></label>
        <button id="map-stale-save" type="submit" class="primary" disabled={action.busy}>{t.saveStale}</button>
      </div>
      <Result id="map-stale-result" action={action} />
    </form>
  );
}
