import { useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { statusByCode } from '../../app/catalogue.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { statusText } from './status-strings.ts';
import { applyLocally, Chip, positionOrNone } from './status-util.tsx';

const blank = { code: '', label: '', color: '#607d8b', alarm: false, position: NaN };

/** A new status. A code the catalogue holds already is edited in its row, not replaced from here. */
export function AddStatus() {
  const t = statusText();
  const action = useAction();
  const [s, setS] = useState(blank);
  const set = (change: Partial<typeof blank>) => setS({ ...s, ...change });
  const submit = async (e: Event) => {
    e.preventDefault();
    const code = s.code.trim();
    if (statusByCode.peek().has(code)) {
      await action.run(() => Promise.reject(new Error(t.exists(code))));
      return;
    }
    const saved = await action.run(
      () => api.units.putStatus.mutate({ code, label: s.label, color: s.color, alarm: s.alarm, position: positionOrNone(s.position) }),
      (r) => t.added(r.code),
    );
    if (!saved) return;
    applyLocally(saved.code, saved);
    setS(blank);
  };
  return (
    <form id="status-add" class="status-add" onSubmit={submit} noValidate>
      <h3>{t.newTitle}</h3>
      <div class="status-add-fields">
        <label>{t.code}<input id="status-new-code" class="code-input" value={s.code} maxLength={4} autoComplete="off"
          onInput={(e) => set({ code: (e.target as HTMLInputElement).value })} /></label>
        <label class="grow">{t.label}<input id="status-new-label" value={s.label} maxLength={40}
          onInput={(e) => set({ label: (e.target as HTMLInputElement).value })} /></label>
        <label>{t.color}<input id="status-new-color" type="color" value={s.color}
          onInput={(e) => set({ color: (e.target as HTMLInputElement).value })} /></label>
        <label class="check inline"><input id="status-new-alarm" type="checkbox" checked={s.alarm}
          onChange={(e) => set({ alarm: (e.target as HTMLInputElement).checked })} /><span>{t.alarm}</span></label>
        <label>{t.position}<input id="status-new-position" class="num" type="number" inputMode="numeric" placeholder={t.positionHint}
          value={Number.isFinite(s.position) ? s.position : ''} onInput={(e) => set({ position: (e.target as HTMLInputElement).valueAsNumber })} /></label>
        {s.code.trim() && <Chip code={s.code.trim()} label={s.label} color={s.color} />}
        <button id="status-new-save" type="submit" class="primary" disabled={action.busy}>{t.add}</button>
      </div>
      <Result id="status-new-result" action={action} />
    </form>
  );
}
