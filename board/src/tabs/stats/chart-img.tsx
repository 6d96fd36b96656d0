import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { guild } from '../../app/session.ts';
import { lang } from '../../app/i18n.ts';
import { theme } from '../../app/theme.ts';
import { useWidth } from '../../ui/use-width.ts';
import { dataVersion } from './state.ts';
import { statsText } from './words.ts';

/** The server's bounds on maxPixels (spec §4, DESIGN §7). */
const MIN_PIXELS = 50_000;
const MAX_PIXELS = 4_000_000;
/** Widths are rounded up to this step: a window resized by a few pixels keeps its images. */
const WIDTH_STEP = 40;

const prefersLight = matchMedia('(prefers-color-scheme: light)');
const systemLight = signal(prefersLight.matches);
prefersLight.addEventListener('change', (e) => (systemLight.value = e.matches));

/** The board's colours as a chart theme: the person's choice, or the system's when they chose none. */
export function chartTheme(): 'dark' | 'light' {
  const t = theme.value;
  return t === 'system' ? (systemLight.value ? 'light' : 'dark') : t;
}

/**
 * The pixels to ask for: the box's width in device pixels squared over the chart's aspect, so the
 * image is sharp on a HiDPI screen and never larger than shown.
 */
export function maxPixelsFor(cssWidth: number, aspect: number): number {
  const px = Math.ceil(cssWidth / WIDTH_STEP) * WIDTH_STEP * (window.devicePixelRatio || 1);
  const wanted = Math.round((px * px) / aspect);
  return Math.min(MAX_PIXELS, Math.max(MIN_PIXELS, wanted));
}

export interface ChartImgProps {
  /** Under /api/v1: `stats/leaderboard/chart/bars.png`. */
  path: string;
  /** Query parameters (period, filters, limit); undefined and empty ones are left out. */
  params: object;
  /** Width over height, as the server draws this chart (share 4:3, the others 16:9). */
  aspect: number;
  alt: string;
  id?: string;
  /** The colours to draw in; default the board's. */
  theme?: 'dark' | 'light';
}

/**
 * A server-rendered chart as a plain <img>: sized to its box, in the board's theme and language, for the open
 * guild (`?guild=`, since an <img> cannot send x-guild-id). Until the first image arrives the box
 * keeps the chart's shape; a new image replaces the old one only once it has loaded.
 */
export function ChartImg({ path, params, aspect, alt, id, theme: colours }: ChartImgProps) {
  const t = statsText();
  const box = useWidth<HTMLDivElement>(0); // 0 until measured: no image is asked for before its size is known
  const width = Math.ceil(box.width / WIDTH_STEP) * WIDTH_STEP;
  const [state, setState] = useState<'loading' | 'ok' | 'error'>('loading');
  const [retry, setRetry] = useState(0);
  const guildId = guild.value?.guildId;
  const query = new URLSearchParams({ guild: guildId ?? '' });
  for (const [k, v] of Object.entries(params) as [string, unknown][]) if (v !== undefined && v !== '') query.set(k, String(v));
  if (width) query.set('maxPixels', String(maxPixelsFor(width, aspect)));
  query.set('theme', colours ?? chartTheme());
  query.set('lang', lang.value); // the chart's texts in the board's language
  // each data version (and a retry) has a URL of its own: the browser's cache (max-age=60) never
  // shows a chart older than the numbers beside it
  query.set('v', String(dataVersion.value + retry * 1000));
  const src = `/api/v1/${path}?${query}`;
  useEffect(() => setState((s) => (s === 'error' ? 'loading' : s)), [src]);
  return (
    <div ref={box.ref} class={`chart-box chart-${state}`} style={{ aspectRatio: String(aspect) }}>
      {width > 0 && guildId && (
        <a href={src} target="_blank" rel="noopener" class="chart-link" title={t.openImage} tabIndex={-1}>
          <img id={id} src={src} alt={alt} decoding="async" onLoad={() => setState('ok')} onError={() => setState('error')} />
        </a>
      )}
      {state === 'error' && (
        <div class="chart-failed" role="alert">
          <span>{t.chartFailed}</span>
          <button type="button" class="small" onClick={() => { setState('loading'); setRetry((n) => n + 1); }}>{t.retry}</button>
        </div>
      )}
    </div>
  );
}
