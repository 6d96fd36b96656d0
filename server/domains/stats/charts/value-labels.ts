import type { SKRSContext2D } from '@napi-rs/canvas';
import { formatDuration, formatDurationShort } from './format.ts';

/**
 * The duration texts of a bar chart, in the longest form for which every one fits `room` px
 * (measured in ctx's current font): "12 h 30 min", else "12 h", else none at all ('' each).
 * `skipZero` leaves zero bars unlabelled (a row of "0 min" under a series is noise).
 */
export function valueTexts(ctx: SKRSContext2D, ms: number[], room: number, skipZero: boolean): string[] {
  for (const format of [formatDuration, formatDurationShort]) {
    const texts = ms.map((v) => (skipZero && v <= 0 ? '' : format(v)));
    if (texts.every((text) => ctx.measureText(text).width <= room)) return texts;
  }
  return ms.map(() => '');
}

/** The widest of the texts in ctx's current font, px (0 for none). */
export function widest(ctx: SKRSContext2D, texts: string[]): number {
  return texts.reduce((w, text) => Math.max(w, text ? ctx.measureText(text).width : 0), 0);
}
