/** Colours of a chart: the theme's neutrals, and the guild accent made readable on them. */

export interface Theme {
  background: string;
  text: string;
  muted: string;
  grid: string;
  axis: string;
  /** The guild accent, lightened or darkened until it stands out from the background. */
  accent: string;
  /** The previous period's line and the "Andere" slice. */
  neutral: string;
}

/** Discord's blurple: the accent when a guild has none or sent something that is not #rrggbb. */
export const DEFAULT_ACCENT = '#5865f2';

type Rgb = [number, number, number];
type Hsl = [number, number, number];

export function themeFor(theme: 'dark' | 'light', color: string): Theme {
  const dark = theme === 'dark';
  const background = dark ? '#2b2d31' : '#ffffff';
  const accent = readableOn(parseHex(color) ?? parseHex(DEFAULT_ACCENT)!, parseHex(background)!, 3);
  return {
    background,
    text: dark ? '#f2f3f5' : '#1e1f22',
    muted: dark ? '#b5bac1' : '#5c5e66',
    grid: dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.08)',
    axis: dark ? 'rgba(255,255,255,0.22)' : 'rgba(0,0,0,0.25)',
    accent: toHex(accent),
    neutral: dark ? '#80848e' : '#949ba4',
  };
}

/**
 * n slice colours derived from the accent: the accent first, then hues spread evenly around the
 * colour wheel from it, dealt out with a stride so that neighbouring slices are far apart in hue,
 * lightness alternating; each moved in lightness until it is readable on the background.
 */
export function paletteFor(t: Theme, n: number): string[] {
  const [h, s] = rgbToHsl(parseHex(t.accent)!);
  const bg = parseHex(t.background)!;
  const dark = luminance(bg) < 0.5;
  const saturation = Math.min(0.72, Math.max(0.5, s));
  let stride = Math.max(1, Math.round(n * 0.38));
  while (gcd(stride, n) !== 1) stride++;
  const colors = [t.accent];
  for (let i = 1; i < n; i++) {
    const hue = (h + ((i * stride) % n) * 360 / n) % 360;
    const lightness = (i % 2 === 0) === dark ? 0.68 : 0.52;
    colors.push(toHex(readableOn(hslToRgb([hue, saturation, lightness]), bg, 2.2)));
  }
  return colors;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Black or white, whichever reads better on this colour (text drawn on a slice or bar). */
export function textOn(color: string): string {
  const rgb = parseHex(color);
  return rgb && luminance(rgb) > 0.4 ? '#111214' : '#ffffff';
}

/** A #rrggbb colour with an alpha, as rgba(). */
export function withAlpha(color: string, alpha: number): string {
  const [r, g, b] = parseHex(color) ?? [128, 128, 128];
  return `rgba(${r},${g},${b},${alpha})`;
}

export function parseHex(color: string): Rgb | null {
  const m = /^#([0-9a-f]{6})$/i.exec(String(color ?? '').trim());
  if (!m) return null;
  const n = parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex(rgb: Rgb): string {
  return '#' + rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('');
}

/** The colour moved in lightness (towards white on a dark background, black on a light one) until it has the contrast. */
function readableOn(rgb: Rgb, bg: Rgb, minContrast: number): Rgb {
  const towardsLight = luminance(bg) < 0.5;
  let [h, s, l] = rgbToHsl(rgb);
  let out = rgb;
  for (let i = 0; i < 40 && contrast(out, bg) < minContrast; i++) {
    l = Math.min(1, Math.max(0, l + (towardsLight ? 0.025 : -0.025)));
    out = hslToRgb([h, s, l]);
  }
  return out;
}

function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: Rgb, b: Rgb): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

function rgbToHsl([r, g, b]: Rgb): Hsl {
  r /= 255; g /= 255; b /= 255;
  const max = Math.max(r, g, b), min = Math.min(r, g, b), l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h * 60, s, l];
}

function hslToRgb([h, s, l]: Hsl): Rgb {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}
