import { effect, signal } from '@preact/signals';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { guild } from '../../app/session.ts';
import { live } from '../../live/board-live.ts';
import { callText } from '../calls/words.ts';
import { ensureSheets } from '../incidents/store.ts';
import { Details } from './details.tsx';
import { callMarks, incidentMarks, unitMarks } from './marks.ts';
import { frames, positions, positionsError, staleAfterMs, usePositionsStream } from './positions.ts';
import { MapScene } from './scene.ts';
import { findOnMap } from './search.ts';
import { ensureMapSettings, imageUrl, mapSettings, postals, type Postal } from './settings.ts';
import { mapState, type MapState } from './state.ts';
import { injectMapStyles } from './styles.ts';
import { nearestPostal } from './transform.ts';
import { mapText } from './words.ts';

/** Every 2 s: stale positions turn grey without a frame (a unit that stops sending sends nothing). */
const tick = signal(Date.now());
let ticking = 0;
let timer: ReturnType<typeof setInterval> | undefined;
function useTick(): () => void {
  if (ticking++ === 0) timer = setInterval(() => (tick.value = Date.now()), 2000);
  return () => {
    if (--ticking === 0) clearInterval(timer);
  };
}

declare const DT_TEST_HOOKS: boolean;
/** The shown scenes; the test build exposes them as `window.dtMap`. */
const scenes = new Set<{ scene: MapScene; state: MapState }>();
if (DT_TEST_HOOKS) (globalThis as { dtMap?: unknown }).dtMap = { scenes, positions };

export interface Picked { x: number; y: number; postal: string | null }

/**
 * A live map: the guild's image or the grid, units, calls, incidents and postals, a search and the
 * details of what was clicked. While shown it holds the positions subscription. `onPick` makes it a
 * picker: a click gives the game coordinates (and the nearest postal) instead of details.
 */
export function MapView({ onPick, compact }: { onPick?: (p: Picked) => void; compact?: boolean }) {
  const t = mapText();
  const host = useRef<HTMLDivElement>(null);
  const state = useMemo(mapState, []);
  const [query, setQuery] = useState('');
  const sceneRef = useRef<MapScene | null>(null);

  useEffect(() => {
    injectMapStyles();
    ensureMapSettings();
    ensureSheets();
    const release = usePositionsStream();
    const untick = useTick();
    const pick = onPick;
    const scene = new MapScene(host.current!, {
      onSelect: (sel) => (state.selected.value = sel),
      onManualMove: () => (state.following.value = null),
      ...(pick ? { onPick: (x: number, y: number) => {
        const p = nearestPostal(postals.peek(), x, y);
        pick({ x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10, postal: p?.code ?? null });
      } } : {}),
    });
    sceneRef.current = scene;
    const entry = { scene, state };
    scenes.add(entry);
    const resized = new ResizeObserver(() => scene.resized());
    resized.observe(host.current!);
    const byCode = () => new Map(postals.value.map((p) => [p.code, p] as const));
    const stops = [
      // The base: the calibrated image, or the grid over what there is to show.
      effect(() => {
        const s = mapSettings.value;
        const g = guild.value;
        if (!s || !g) return;
        const image = s.image && s.calibration?.points.length === 2 ? { image: s.image, url: imageUrl(s.image, g.guildId), points: s.calibration.points } : null;
        scene.setBase(image, [...positions.values()]);
      }),
      effect(() => scene.setPostals(postals.value)),
      // Units: every frame moves the markers it names; status and catalogue restyle in place.
      effect(() => {
        frames.value;
        mapSettings.value;
        const staleMs = mapSettings.value ? Math.min(staleAfterMs.value, mapSettings.value.staleAfterSeconds * 1000 || Infinity) : staleAfterMs.value;
        scene.syncUnits(unitMarks(tick.value, staleMs));
        const f = state.following.value;
        const p = f ? positions.get(f) : undefined;
        if (p) scene.centreOn(p.x, p.y, true);
      }),
      effect(() => {
        mapSettings.value;
        const codes = byCode();
        scene.syncPlaces([...incidentMarks(codes), ...callMarks(codes, callText().kinds)]);
      }),
      // The followed unit is marked; following starts with a jump to it.
      effect(() => {
        const f = state.following.value;
        host.current?.querySelectorAll('.map-unit.followed').forEach((el) => el.classList.remove('followed'));
        if (!f) return;
        host.current?.querySelector(`.map-unit[data-unit="${CSS.escape(f)}"]`)?.classList.add('followed');
        const p = positions.get(f);
        if (p) scene.centreOn(p.x, p.y, false);
      }),
    ];
    return () => {
      resized.disconnect();
      for (const stop of stops) stop();
      scenes.delete(entry);
      scene.destroy();
      sceneRef.current = null;
      untick();
      release();
    };
  }, []);

  const search = (e: Event) => {
    e.preventDefault();
    const found = findOnMap(query, postals.peek(), live.units.keys.peek().filter((c) => positions.has(c)));
    const scene = sceneRef.current;
    state.searchMiss.value = found ? null : query.trim() || null;
    if (!found || !scene) return;
    if (found.kind === 'postal') {
      state.following.value = null;
      scene.jumpTo(found.postal.x, found.postal.y, scene.map.getZoom() + 2 > 0 ? 0 : scene.map.getZoom() + 2);
    } else {
      const p = positions.get(found.callsign)!;
      scene.jumpTo(p.x, p.y);
      state.selected.value = { kind: 'unit', id: found.callsign };
    }
  };

  const miss = state.searchMiss.value;
  const followed = state.following.value;
  return (
    <div class={`map-view${compact ? ' compact' : ''}`}>
      <div class="map-bar">
        <form role="search" onSubmit={search}>
          <input id="map-search" type="search" placeholder={t.search} aria-label={t.searchLabel} value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
          <button type="submit" class="small">{t.go}</button>
        </form>
        {followed && (
          <span class="map-follow pill" id="map-following">{t.following(followed)}
            <button type="button" class="small" aria-label={t.unfollow} onClick={() => (state.following.value = null)}>✕</button>
          </span>
        )}
        {miss && <span class="map-note error" id="map-search-miss" role="status">{t.notFound(miss)}{/^\s*(plz|postal)|^\d+$/i.test(miss) && !postals.value.length ? ` ${t.noPostals}` : ''}</span>}
        {positionsError.value && <span class="map-note muted" id="map-no-stream">{t.noStream}</span>}
        {mapSettings.value && !mapSettings.value.image && !compact && <span class="map-note muted" id="map-grid-note">{t.grid}</span>}
      </div>
      <div class="dt-map" id={onPick ? 'map-pick' : compact ? 'map-side' : 'map'} ref={host} role="application" aria-label={t.mapLabel} />
      {!onPick && <Details state={state} />}
    </div>
  );
}

export type { Postal };
