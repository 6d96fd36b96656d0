import * as L from 'leaflet';
import { gridExtent, gridTransform, imageTransform, type Extent, type MapImage, type Transform } from './transform.ts';
import type { Selection } from './state.ts';

/** A unit as the map draws it. */
export interface UnitMark { callsign: string; x: number; y: number; heading: number; color: string; stale: boolean; title: string }
/** A call or an incident as the map draws it (`x`/`y` game coordinates). */
export interface PlaceMark { key: string; x: number; y: number; cls: string; badge: string; label: string; title: string }

interface UnitMarker { marker: L.Marker; el: HTMLElement; arrow: HTMLElement; color: string; stale: boolean; angle: number; title: string }
interface PlaceMarker { marker: L.Marker; el: HTMLElement; sig: string }

export interface SceneOptions {
  onSelect(sel: Selection): void;
  /** Pick mode: a click anywhere gives its game coordinates; markers are then not clickable. */
  onPick?(x: number, y: number): void;
  /** The person moved the map (drag): following ends. */
  onManualMove(): void;
}

/** Game units between two lines of the coordinate grid. */
const GRID_STEP = 1000;

/** Room a fit leaves inside the map's box, px. */
type Fit = { paddingTopLeft: L.PointTuple; paddingBottomRight: L.PointTuple };
const noLabels: Fit = { paddingTopLeft: [0, 0], paddingBottomRight: [0, 0] };
/**
 * The grid's top Y label sits above its top line, its X labels below its bottom line, and the
 * labels of its right-most lines reach past its right edge: room for all of them, or they start
 * out of sight. The right margin also keeps the grid clear of the zoom buttons (bottom right), so
 * on a phone, where the grid fills the width, they cover no X label.
 */
const gridLabels: Fit = { paddingTopLeft: [0, 18], paddingBottomRight: [56, 22] };

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Glide (CSS transition) for markers placed at least once: a new marker must not fly in from the corner. */
const glideLater = (el: HTMLElement) => requestAnimationFrame(() => requestAnimationFrame(() => el.classList.add('glide')));

/**
 * The Leaflet side of a shown map: the base (calibrated image or grid), and the markers of units,
 * calls, incidents and postals, each created once and then only moved (`setLatLng`) or restyled
 * in place, so 200 units streaming at 1 Hz cost 200 transforms a second and no DOM churn.
 */
export class MapScene {
  readonly map: L.Map;
  transform: Transform = gridTransform;
  private base = L.layerGroup();
  private unitLayer = L.layerGroup();
  private placeLayer = L.layerGroup();
  private postalLayer = L.layerGroup();
  private units = new Map<string, UnitMarker>();
  private places = new Map<string, PlaceMarker>();
  private postalList: readonly { code: string; x: number; y: number }[] = [];
  private baseKey = '';
  /** The base's first fit, kept while nobody has moved the map: a new size (the panel laid out, a phone turned) fits it again. */
  private firstFit: { bounds: L.LatLngBounds; padding: Fit } | null = null;
  private fitting = false;

  constructor(el: HTMLElement, private readonly opts: SceneOptions) {
    this.map = L.map(el, {
      crs: L.CRS.Simple, minZoom: -6, maxZoom: 4, zoomSnap: 0.25, zoomDelta: 0.5, wheelPxPerZoomLevel: 120,
      attributionControl: false, zoomControl: false, preferCanvas: true, inertia: true,
    });
    // A view from the start: Leaflet adds markers only to a map that has one (the base comes with the settings).
    const d = gridExtent([]);
    this.map.fitBounds(L.latLngBounds([d.minY, d.minX], [d.maxY, d.maxX]));
    L.control.zoom({ position: 'bottomright' }).addTo(this.map);
    this.base.addTo(this.map);
    this.postalLayer.addTo(this.map);
    this.placeLayer.addTo(this.map);
    this.unitLayer.addTo(this.map);
    this.map.on('dragstart', () => opts.onManualMove());
    this.map.on('movestart zoomstart', () => {
      if (!this.fitting) this.firstFit = null; // a drag, a zoom, a jump: the view is the person's now
    });
    this.map.on('zoomstart', () => el.classList.add('dt-zooming'));
    this.map.on('zoomend', () => requestAnimationFrame(() => requestAnimationFrame(() => el.classList.remove('dt-zooming'))));
    // The grid's "x | y" labels stand every 2000 units: closer than a label is wide, they would overlap (a phone's fitted grid).
    const markDensity = () => el.classList.toggle('dt-grid-dense', 2 * GRID_STEP * 2 ** this.map.getZoom() < 72);
    this.map.on('zoomend', markDensity);
    markDensity();
    this.map.on('moveend', () => this.drawPostals());
    if (opts.onPick) {
      el.classList.add('dt-picking');
      this.map.on('click', (e: L.LeafletMouseEvent) => {
        const g = this.transform.toGame(e.latlng.lat, e.latlng.lng);
        opts.onPick!(g.x, g.y);
      });
    }
  }

  /** The image with its calibration, or the grid over `points` (their extent widened to the default map). Re-places every marker when it changes. */
  setBase(image: { image: MapImage; url: string; points: Parameters<typeof imageTransform>[0] } | null, points: { x: number; y: number }[]): void {
    const t = image ? imageTransform(image.points) : null;
    const extent = t ? null : gridExtent(points);
    const key = t && image ? `img:${image.url}:${JSON.stringify(image.points)}:${image.image.width}x${image.image.height}` : `grid:${JSON.stringify(extent)}`;
    if (key === this.baseKey) return;
    const first = this.baseKey === '';
    this.baseKey = key;
    this.base.clearLayers();
    this.transform = t ?? gridTransform;
    let bounds: L.LatLngBounds;
    if (t && image) {
      bounds = L.latLngBounds([-image.image.height, 0], [0, image.image.width]);
      L.imageOverlay(image.url, bounds, { className: 'map-image' }).addTo(this.base);
    } else {
      bounds = this.drawGrid(extent!);
    }
    // Fitted without animation (a zoom animation still running would end on its own target), the
    // first time and while nobody has moved the map. Then room around the map (a followed unit at
    // its edge still centres), but not lost at sea.
    if (first || this.firstFit) this.fit(bounds, t ? noLabels : gridLabels);
    this.map.options.minZoom = Math.min(this.map.getZoom(), this.map.getBoundsZoom(bounds) - 1);
    this.map.setMaxBounds(bounds.pad(4));
    for (const u of this.units.values()) {
      const pos = u.marker.getLatLng() as L.LatLng & { game?: { x: number; y: number } };
      if (pos.game) u.marker.setLatLng(this.latLng(pos.game.x, pos.game.y));
      u.angle = NaN; // the heading's screen angle depends on the transform
    }
    for (const p of this.places.values()) {
      const pos = p.marker.getLatLng() as L.LatLng & { game?: { x: number; y: number } };
      if (pos.game) p.marker.setLatLng(this.latLng(pos.game.x, pos.game.y));
    }
    this.drawPostals();
  }

  private fit(bounds: L.LatLngBounds, padding: Fit): void {
    this.firstFit = { bounds, padding };
    this.fitting = true;
    try {
      this.map.fitBounds(bounds, { animate: false, ...padding });
    } finally {
      this.fitting = false;
    }
  }

  /** The container changed size: Leaflet measures it again, and a map nobody has moved yet is fitted to it anew. */
  resized(): void {
    this.map.invalidateSize({ pan: false });
    if (this.firstFit) this.fit(this.firstFit.bounds, this.firstFit.padding);
  }

  /** Lines every 1000 game units over `e`, labelled with their X or Y along the edges and at the origin. */
  private drawGrid(e: Extent): L.LatLngBounds {
    const step = GRID_STEP;
    const renderer = L.canvas({ padding: 0.5 });
    const lines: L.LatLngExpression[][] = [];
    for (let x = e.minX; x <= e.maxX; x += step) lines.push([[e.minY, x], [e.maxY, x]]);
    for (let y = e.minY; y <= e.maxY; y += step) lines.push([[y, e.minX], [y, e.maxX]]);
    L.polyline(lines, { renderer, className: 'map-grid-line', color: '#8899aa', weight: 1, opacity: 0.45, interactive: false }).addTo(this.base);
    L.polyline([[[e.minY, 0], [e.maxY, 0]], [[0, e.minX], [0, e.maxX]]], { renderer, color: '#8899aa', weight: 2, opacity: 0.8, interactive: false }).addTo(this.base);
    const label = (lat: number, lng: number, text: string, cls: string) => L.marker([lat, lng], {
      interactive: false, keyboard: false,
      icon: L.divIcon({ className: `map-grid-label ${cls}`, html: esc(text), iconSize: undefined }),
    }).addTo(this.base);
    // Along the bottom every other line only: "X -4000" beside "X -3000" would overlap on a phone.
    for (let x = e.minX; x <= e.maxX; x += step) if (x % (2 * step) === 0) label(e.minY, x, `X ${x}`, 'gx');
    for (let y = e.minY; y <= e.maxY; y += step) label(y, e.minX, `Y ${y}`, 'gy');
    for (let x = e.minX + 2 * step; x < e.maxX; x += 2 * step) for (let y = e.minY + 2 * step; y < e.maxY; y += 2 * step) label(y, x, `${x} | ${y}`, 'gxy');
    return L.latLngBounds([e.minY, e.minX], [e.maxY, e.maxX]);
  }

  private latLng(x: number, y: number): L.LatLng {
    const p = this.transform.toMap(x, y);
    return Object.assign(L.latLng(p.lat, p.lng), { game: { x, y } });
  }

  /** Creates, moves, restyles and removes unit markers to match `marks` (every unit with a position). */
  syncUnits(marks: Iterable<UnitMark>, only?: ReadonlySet<string>): void {
    const seen = new Set<string>();
    for (const m of marks) {
      seen.add(m.callsign);
      if (only && !only.has(m.callsign) && this.units.has(m.callsign)) {
        this.restyle(this.units.get(m.callsign)!, m);
        continue;
      }
      const u = this.units.get(m.callsign);
      if (u) {
        const at = u.marker.getLatLng() as L.LatLng & { game?: { x: number; y: number } };
        if (at.game?.x !== m.x || at.game?.y !== m.y) u.marker.setLatLng(this.latLng(m.x, m.y));
        this.restyle(u, m);
      } else this.addUnit(m);
    }
    for (const [callsign, u] of this.units) {
      if (seen.has(callsign)) continue;
      this.unitLayer.removeLayer(u.marker);
      this.units.delete(callsign);
    }
  }

  private addUnit(m: UnitMark): void {
    const icon = L.divIcon({
      className: 'map-unit', iconSize: [22, 22], iconAnchor: [11, 11],
      html: `<span class="map-unit-arrow"></span><span class="map-unit-dot"></span><span class="map-unit-label">${esc(m.callsign)}</span>`,
    });
    const marker = L.marker(this.latLng(m.x, m.y), { icon, title: m.title, keyboard: true, interactive: !this.opts.onPick, riseOnHover: true });
    marker.on('click', () => this.opts.onSelect({ kind: 'unit', id: m.callsign }));
    marker.addTo(this.unitLayer);
    const el = marker.getElement()!;
    el.dataset.unit = m.callsign;
    const u: UnitMarker = { marker, el, arrow: el.querySelector('.map-unit-arrow') as HTMLElement, color: '', stale: false, angle: NaN, title: m.title };
    this.units.set(m.callsign, u);
    this.restyle(u, m);
    glideLater(el);
  }

  private restyle(u: UnitMarker, m: UnitMark): void {
    if (u.color !== m.color) u.el.style.setProperty('--unit', (u.color = m.color));
    if (u.stale !== m.stale) u.el.classList.toggle('stale', (u.stale = m.stale));
    const angle = Math.round(this.transform.screenAngle(m.heading));
    if (u.angle !== angle) u.arrow.style.transform = `rotate(${(u.angle = angle)}deg)`;
    if (u.title !== m.title) u.el.title = u.title = m.title;
  }

  /** Calls and incidents: created once per key, rebuilt only when what they show changed. */
  syncPlaces(marks: Iterable<PlaceMark>): void {
    const seen = new Set<string>();
    for (const m of marks) {
      seen.add(m.key);
      const sig = `${m.x}|${m.y}|${m.cls}|${m.badge}|${m.label}|${m.title}`;
      const p = this.places.get(m.key);
      if (p?.sig === sig) continue;
      if (p) this.placeLayer.removeLayer(p.marker);
      const icon = L.divIcon({
        className: `map-place ${m.cls}`, iconSize: [26, 26], iconAnchor: [13, 13],
        html: `<span class="map-place-badge"><b>${esc(m.badge)}</b></span>${m.label ? `<span class="map-place-label">${esc(m.label)}</span>` : ''}`,
      });
      const marker = L.marker(this.latLng(m.x, m.y), { icon, title: m.title, keyboard: true, interactive: !this.opts.onPick, zIndexOffset: m.cls.includes('kind-panik') ? 2000 : 1000 });
      const [kind, id] = m.key.split(':', 2) as ['call' | 'incident', string];
      const rest = m.key.slice(kind.length + 1);
      marker.on('click', () => this.opts.onSelect(kind === 'call' ? { kind, id: rest } : { kind: 'incident', id: Number(id) }));
      marker.addTo(this.placeLayer);
      marker.getElement()!.dataset.place = m.key;
      this.places.set(m.key, { marker, el: marker.getElement()!, sig });
    }
    for (const [key, p] of this.places) {
      if (seen.has(key)) continue;
      this.placeLayer.removeLayer(p.marker);
      this.places.delete(key);
    }
  }

  setPostals(list: readonly { code: string; x: number; y: number }[]): void {
    this.postalList = list;
    this.drawPostals();
  }

  /** Postal labels at closer zoom only (a few hundred in view at most). */
  private drawPostals(): void {
    this.postalLayer.clearLayers();
    const perUnit = 2 ** this.map.getZoom() * this.transform.scale;
    if (!this.postalList.length || perUnit < 0.45) return;
    const view = this.map.getBounds().pad(0.1);
    let n = 0;
    for (const p of this.postalList) {
      const at = this.latLng(p.x, p.y);
      if (!view.contains(at)) continue;
      if (++n > 400) break;
      L.marker(at, { interactive: false, keyboard: false, icon: L.divIcon({ className: 'map-postal', html: esc(p.code), iconSize: undefined }) }).addTo(this.postalLayer);
    }
  }

  /** Centres the map on a game point (zooming in to at least `zoom`). */
  jumpTo(x: number, y: number, zoom?: number): void {
    this.firstFit = null;
    this.map.setView(this.latLng(x, y), Math.max(this.map.getZoom(), zoom ?? this.map.getZoom()), { animate: true });
  }

  /** Keeps a moving unit in the centre: the pan glides as long as the marker does. */
  centreOn(x: number, y: number, glide: boolean): void {
    this.firstFit = null;
    this.map.panTo(this.latLng(x, y), glide ? { animate: true, duration: 0.9, easeLinearity: 1, noMoveStart: true } : { animate: false });
  }

  /** Where a game point is on screen, relative to the map's container (tests, the follow check). */
  screenPoint(x: number, y: number): { x: number; y: number } {
    const p = this.map.latLngToContainerPoint(this.latLng(x, y));
    return { x: p.x, y: p.y };
  }

  destroy(): void {
    this.map.remove();
    this.units.clear();
    this.places.clear();
  }
}
