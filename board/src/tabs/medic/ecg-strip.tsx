import { useMemo, useState } from 'preact/hooks';
import { dateTime, decimal } from '../../app/i18n.ts';
import { useWidth } from '../../ui/use-width.ts';
import { ms, type Ecg } from './types.ts';
import { medicText } from './words.ts';

/** ECG paper: 25 mm/s and 10 mm/mV, drawn at 4 px per mm (100 px per second, 40 px per mV). */
const pxPerMm = 4;
const pxPerS = 25 * pxPerMm;
const pxPerMv = 10 * pxPerMm;

/**
 * One ECG strip as on paper: the small (1 mm) and large (5 mm) grid as an SVG pattern, and the
 * samples as one polyline with a point per sample (no downsampling: at most 10 000 samples).
 * A strip longer than its box scrolls sideways inside it.
 */
function Strip({ ecg }: { ecg: Ecg }) {
  const t = medicText();
  const box = useWidth<HTMLDivElement>(pxPerS, 200);
  const n = ecg.samples.length;
  const seconds = n / ecg.sampleRateHz;
  const peak = ecg.samples.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const range = Math.min(5, Math.max(1.5, Math.ceil((peak + 0.3) * 2) / 2)); // mV above and below the baseline
  const traceWidth = Math.ceil(seconds * pxPerS);
  const width = Math.max(traceWidth, box.width - 2); // the paper fills the box; a short strip leaves it blank after the trace
  const height = Math.ceil(2 * range * pxPerMv);
  const mid = height / 2;
  const clip = (v: number) => Math.max(-range, Math.min(range, v));
  const points = useMemo(() => ecg.samples.map((v, i) => `${((i / ecg.sampleRateHz) * pxPerS).toFixed(1)},${(mid - clip(v) * pxPerMv).toFixed(1)}`).join(' '), [ecg, height]);
  const id = `ecg-grid-${ecg.eventId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const label = `${t.ecg}: ${t.rhythm[ecg.rhythm] ?? ecg.rhythm}`;
  return (
    <div ref={box.ref} class="ecg-scroll" tabIndex={0} role="group" aria-label={label}>
      <svg class="ecg" width={width} data-trace-width={traceWidth} height={height} role="img" aria-label={label} data-samples={n}>
        <defs>
          <pattern id={`${id}-s`} width={pxPerMm} height={pxPerMm} patternUnits="userSpaceOnUse">
            <path d={`M ${pxPerMm} 0 L 0 0 0 ${pxPerMm}`} class="ecg-minor" />
          </pattern>
          <pattern id={id} width={5 * pxPerMm} height={5 * pxPerMm} patternUnits="userSpaceOnUse" y={mid % (5 * pxPerMm)}>
            <rect width={5 * pxPerMm} height={5 * pxPerMm} fill={`url(#${id}-s)`} />
            <path d={`M ${5 * pxPerMm} 0 L 0 0 0 ${5 * pxPerMm}`} class="ecg-major" />
          </pattern>
        </defs>
        <rect class="ecg-paper" width={width} height={height} />
        <rect width={width} height={height} fill={`url(#${id})`} />
        <polyline class="ecg-trace" points={points} data-points={n} />
      </svg>
    </div>
  );
}

/** The file's ECG strips (newest first): the chosen one drawn, the others one click away. */
export function EcgPanel({ ecg }: { ecg: Ecg[] }) {
  const t = medicText();
  const newestFirst = [...ecg].sort((a, b) => ms(b.at) - ms(a.at));
  const [chosen, setChosen] = useState<string | null>(null);
  if (!newestFirst.length) return <p class="muted" id="ecg-none">{t.noEcg}</p>;
  const shown = newestFirst.find((e) => e.eventId === chosen) ?? newestFirst[0];
  const secs = decimal(shown.samples.length / shown.sampleRateHz);
  return (
    <div class="ecg-panel" id="ecg" data-event={shown.eventId}>
      <p class="ecg-head">
        <strong class={`rhythm rhythm-${shown.rhythm}`} id="ecg-rhythm">{t.rhythm[shown.rhythm] ?? shown.rhythm}</strong>
        <span class="muted">{dateTime(ms(shown.at))}{shown.lead ? ` · ${t.lead(shown.lead)}` : ''} · <span id="ecg-rate">{t.rate(shown.sampleRateHz)}</span></span>
      </p>
      <Strip key={shown.eventId} ecg={shown} />
      <p class="muted ecg-meta">{t.ecgMeta(shown.samples.length, secs)}</p>
      {newestFirst.length > 1 && (
        <div class="ecg-choose row" role="group" aria-label={t.strips}>
          {newestFirst.map((e) => (
            <button type="button" class={e === shown ? 'small chip active' : 'small chip'} aria-pressed={e === shown} onClick={() => setChosen(e.eventId)}>
              {dateTime(ms(e.at))} · {t.rhythm[e.rhythm] ?? e.rhythm}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
