import { decimal } from '../../app/i18n.ts';
import { vitalLevel, vitalRanges, vitalSide, type VitalKey } from './vital-ranges.ts';
import { medicText } from './words.ts';

/**
 * A vital sign's value as the board shows it everywhere (patient list, legend, chart tip): plain
 * inside the adult normal range; outside it coloured (amber, red when critical) with an arrow
 * that says which way, so colour is never the only cue, and the range in its title.
 */
export function VitalValue({ kind, value, unit }: { kind: VitalKey; value: number; unit?: string }) {
  const t = medicText();
  const level = vitalLevel(kind, value);
  const side = vitalSide(kind, value);
  const r = vitalRanges[kind];
  const range = r.high === r.low ? decimal(r.low) : `${decimal(r.low)}–${decimal(r.high)}`;
  const words = side && [side === 'high' ? t.vitalHigh : t.vitalLow, level === 'critical' ? t.vitalCritical : ''].filter(Boolean).join(', ');
  return (
    <b class={`vital-value lvl-${level}`} data-level={level} title={side ? `${words} (${t.normalRange(range)})` : undefined}>
      {decimal(value)}{unit ? ` ${unit}` : ''}
      {side && <><span class="vital-arrow" aria-hidden="true">{side === 'high' ? ' ↑' : ' ↓'}</span><span class="sr-only"> ({words})</span></>}
    </b>
  );
}
