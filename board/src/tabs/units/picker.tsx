import { statuses, textOn } from '../../app/catalogue.ts';
import { text } from './text.ts';

/**
 * A button per catalogue status in its colour, with the key that sets it (single digits); the
 * current status is pressed. For mouse and touch users; the keys do the same.
 */
export function StatusPicker({ current, busy, onPick, large, only }: {
  current: string | null; busy: boolean; onPick: (code: string) => void;
  /** Large targets for a phone (the crew's own view). */
  large?: boolean;
  /** Which codes to offer (default: every status of the catalogue). */
  only?: (code: string) => boolean;
}) {
  const t = text();
  return (
    <div class={large ? 'status-picker large' : 'status-picker'} role="group" aria-label={t.setStatus}>
      {statuses.value.filter((s) => !only || only(s.code)).map((s) => {
        const key = /^[0-9]$/.test(s.code) ? s.code : undefined;
        return (
          <button type="button" data-code={s.code} class={s.alarm ? 'alarm' : ''} aria-pressed={current === s.code} aria-keyshortcuts={key}
            style={{ background: s.color, color: textOn(s.color) }} disabled={busy} onClick={() => onPick(s.code)}>
            <kbd aria-hidden={!key}>{s.code}</kbd><span>{s.label}</span>
          </button>
        );
      })}
    </div>
  );
}
