import type { SKRSContext2D } from '@napi-rs/canvas';
import { fontCovers } from './fonts.ts';

const graphemes = new Intl.Segmenter('de', { granularity: 'grapheme' });

/**
 * A label as the chart font can draw it: a character (grapheme) with any code point the font
 * lacks — emoji and their joined sequences, CJK, control characters — is dropped whole instead of
 * showing as an empty box or as half a sequence; white space is collapsed. A label left with
 * nothing readable becomes `fallback` ("?": a row is still marked).
 */
export function drawableLabel(label: string, fallback = '?'): string {
  let out = '';
  for (const { segment } of graphemes.segment(String(label ?? ''))) {
    if (/^\s+$/.test(segment)) out += ' ';
    else if (drawable(segment)) out += segment;
  }
  out = out.replace(/\s+/g, ' ').trim();
  return out || fallback;
}

function drawable(grapheme: string): boolean {
  for (const ch of grapheme) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || !fontCovers(cp)) return false;
  }
  return true;
}

/** The text, cut at a grapheme boundary and ended with "…", so it is at most maxWidth wide in ctx's font. */
export function fitText(ctx: SKRSContext2D, text: string, maxWidth: number): string {
  if (ctx.measureText(text).width <= maxWidth) return text;
  const parts = Array.from(graphemes.segment(text), (s) => s.segment);
  let lo = 0, hi = parts.length; // the longest prefix that fits with the ellipsis
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(parts.slice(0, mid).join('').trimEnd() + '…').width <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? (ctx.measureText('…').width <= maxWidth ? '…' : '') : parts.slice(0, lo).join('').trimEnd() + '…';
}
