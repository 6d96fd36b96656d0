import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import { FONT_FAMILY, registerChartFonts } from '../stats/charts/fonts.ts';
import { drawableLabel, fitText } from '../stats/charts/text.ts';
import type { LetterheadRow } from './store.ts';

export interface PreviewInput {
  letterhead: Pick<LetterheadRow, 'name' | 'organisation' | 'addressLines' | 'primaryColor' | 'secondaryColor' | 'footer'>;
  /** The logo upload's bytes (PNG, JPEG, WebP or GIF); null for none. */
  logo: Buffer | null;
  width: number;
}

/** The preview is the top of an A4 page: as wide as the page, half as high. */
export const previewHeight = (width: number) => Math.round(width / 2);

/**
 * Renders the head of a letterhead as a PNG: the logo (fitted into its box, aspect kept) at the
 * top left, organisation and name in the primary colour beside it, the address lines at the right,
 * a rule in the secondary colour under the head, and the footer at the bottom of the image. All
 * lengths scale with the width, so every size shows the same picture. Text the font cannot draw
 * (emoji, CJK) is left out instead of showing boxes; too long lines end with "…".
 *
 * Rendered inline: only the drawing holds the event loop (measured 5–6 ms of event-loop time per
 * render at 1240 px, 13 ms at 2480 px, with a logo and six address lines); decoding the logo and
 * encoding the PNG (the bulk: 30–50 ms wall at 1240 px) run on libuv's thread pool (`loadImage`,
 * `encode`). The service caches the result per version, so a board showing it renders it once.
 */
export async function renderPreview({ letterhead: l, logo, width }: PreviewInput): Promise<Buffer> {
  registerChartFonts();
  const height = previewHeight(width);
  const u = width / 1240; // one unit: a pixel at the default width
  const image = logo ? await decode(logo) : null;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);

  const margin = 70 * u;
  const top = 60 * u;
  const headHeight = 170 * u;
  let textLeft = margin;
  if (image) {
    const box = headHeight;
    const scale = Math.min(box / image.width, box / image.height);
    const w = image.width * scale, h = image.height * scale;
    ctx.drawImage(image, margin + (box - w) / 2, top + (box - h) / 2, w, h);
    textLeft = margin + box + 40 * u;
  }
  const right = width - margin;
  const addressWidth = l.addressLines.length ? 380 * u : 0;
  const titleWidth = right - textLeft - (addressWidth ? addressWidth + 40 * u : 0);

  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'left';
  ctx.fillStyle = l.primaryColor;
  const organisation = l.organisation ? drawableLabel(l.organisation, '') : '';
  let y = top + 62 * u;
  if (organisation) {
    shrinkToFit(ctx, organisation, titleWidth, 56 * u, 32 * u);
    ctx.fillText(fitText(ctx, organisation, titleWidth), textLeft, y);
    y += 56 * u;
  }
  fitFont(ctx, '', (organisation ? 32 : 52) * u);
  ctx.fillText(fitText(ctx, drawableLabel(l.name, ''), titleWidth), textLeft, y);

  if (l.addressLines.length) {
    ctx.textAlign = 'right';
    ctx.fillStyle = '#333333';
    const size = 22 * u;
    fitFont(ctx, '', size);
    l.addressLines.forEach((line, i) => {
      ctx.fillText(fitText(ctx, drawableLabel(line, ''), addressWidth), right, top + size + i * size * 1.3);
    });
  }

  const ruleY = top + headHeight + 35 * u;
  ctx.fillStyle = l.secondaryColor;
  ctx.fillRect(margin, ruleY, right - margin, Math.max(1, 6 * u));

  if (l.footer) {
    const size = 20 * u;
    fitFont(ctx, '', size);
    ctx.textAlign = 'center';
    ctx.fillStyle = '#555555';
    const lines = l.footer.split(/\r\n|\r|\n/).map((s) => drawableLabel(s, '')).filter(Boolean);
    const bottom = height - 40 * u;
    ctx.fillStyle = l.secondaryColor;
    ctx.fillRect(margin, bottom - lines.length * size * 1.35 - 10 * u, right - margin, Math.max(1, 2 * u));
    ctx.fillStyle = '#555555';
    lines.forEach((line, i) => {
      ctx.fillText(fitText(ctx, line, right - margin), width / 2, bottom - (lines.length - 1 - i) * size * 1.35);
    });
  }
  return canvas.encode('png');
}

/** The largest bold size from max down to min at which the text fits; at min it may still be cut by fitText. */
function shrinkToFit(ctx: SKRSContext2D, text: string, width: number, max: number, min: number): void {
  for (let px = max; px > min; px *= 0.92) {
    fitFont(ctx, 'bold', px);
    if (ctx.measureText(text).width <= width) return;
  }
  fitFont(ctx, 'bold', min);
}

function fitFont(ctx: SKRSContext2D, weight: string, px: number): void {
  ctx.font = `${weight ? `${weight} ` : ''}${Math.max(1, Math.round(px))}px "${FONT_FAMILY}"`;
}

/** The logo as an image, or null when its bytes do not decode (the preview is drawn without it). */
async function decode(bytes: Buffer) {
  try {
    const image = await loadImage(bytes);
    return image.width > 0 && image.height > 0 ? image : null;
  } catch {
    return null;
  }
}
