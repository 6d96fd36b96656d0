import { memo } from 'preact/compat';
import { useState } from 'preact/hooks';
import { signal } from '@preact/signals';
import { api } from '../../app/api.ts';
import { statusByCode, statuses, type UnitStatus } from '../../app/catalogue.ts';
import { moduleOn } from '../../app/session.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { ConfirmDelete } from './confirm.tsx';
import { statusText } from './status-strings.ts';
import { AddStatus } from './add-status.tsx';
import { applyLocally, Chip, positionOrNone } from './status-util.tsx';

type Draft = Pick<UnitStatus, 'label' | 'color' | 'alarm' | 'position'>;

/** What the last deletion did: its row is gone, so the section says it. */
const deletedNote = signal('');

/**
 * One status, edited in place: the row shows the catalogue's entry until a field is touched, then
 * the draft until it is saved (the catalogue's notice brings the saved entry back) or discarded.
 */
const StatusRow = memo(({ code }: { code: string }) => {
  const t = statusText();
  const entry = statusByCode.value.get(code);
  const [draft, setDraft] = useState<Draft | null>(null);
  const action = useAction();
  if (!entry) return null;
  const shown = draft ?? entry;
  const edit = (change: Partial<Draft>) => setDraft({ ...shown, ...change });
  const save = () => action.run(async () => {
    const saved = await api.units.putStatus.mutate({ code, ...shown, position: positionOrNone(shown.position) });
    setDraft(null);
    applyLocally(code, saved);
    return saved;
  }, (s) => t.saved(s.code));
  const remove = async () => {
    deletedNote.value = '';
    const r = await action.run(() => api.units.deleteStatus.mutate({ code }));
    if (!r) return;
    deletedNote.value = t.deleted(r.code);
    applyLocally(code, null);
  };
  const discard = () => { setDraft(null); action.clear(); };
  // Keyboard: Enter in a field saves the row, Escape discards its changes.
  const onKey = (e: KeyboardEvent) => {
    if (!draft || !(e.target instanceof HTMLInputElement)) return;
    if (e.key === 'Enter') void save();
    else if (e.key === 'Escape') discard();
  };
  const id = `status-${code}`;
  return (
    <tr id={id} data-status={code} class={draft ? 'dirty' : ''} onKeyDown={onKey}>
      <td data-label={t.code} class="code"><Chip code={code} color={shown.color} /></td>
      <td data-label={t.label} class="label">
        <input id={`${id}-label`} aria-label={`${t.label} ${t.of(code)}`} value={shown.label} maxLength={40}
          onInput={(e) => edit({ label: (e.target as HTMLInputElement).value })} />
      </td>
      <td data-label={t.color}>
        <input id={`${id}-color`} type="color" aria-label={`${t.color} ${t.of(code)}`} value={shown.color}
          onInput={(e) => edit({ color: (e.target as HTMLInputElement).value })} />
      </td>
      <td data-label={t.alarm}>
        <input id={`${id}-alarm`} type="checkbox" aria-label={`${t.alarm} ${t.of(code)}`} checked={shown.alarm}
          onChange={(e) => edit({ alarm: (e.target as HTMLInputElement).checked })} />
      </td>
      <td data-label={t.position}>
        <input id={`${id}-position`} class="num" type="number" inputMode="numeric" aria-label={`${t.position} ${t.of(code)}`} value={Number.isFinite(shown.position) ? shown.position : ''}
          onInput={(e) => edit({ position: (e.target as HTMLInputElement).valueAsNumber })} />
      </td>
      <td class="actions">
        <span class="row">
          {draft && <button id={`${id}-save`} type="button" class="primary small" disabled={action.busy} onClick={() => void save()}>{t.save}</button>}
          {draft && <button id={`${id}-reset`} type="button" class="small" onClick={discard}>{t.reset}</button>}
          <ConfirmDelete idPrefix={id} label={t.delete} what={t.of(code)} busy={action.busy} onConfirm={remove} />
        </span>
        <Result id={`${id}-result`} action={action} />
      </td>
    </tr>
  );
});

/** The guild's status catalogue (the board's live copy: it reloads on every `statuses` notice). */
export function Statuses() {
  const t = statusText();
  const dispatchOn = moduleOn('dispatch');
  const codes = statuses.value.map((s) => s.code);
  return (
    <section id="settings-statuses" class="card" aria-labelledby="statuses-title">
      <h2 id="statuses-title">{t.title} {dispatchOn && <span class="pill">{codes.length}</span>}</h2>
      {!dispatchOn ? <p class="muted" id="statuses-off">{t.dispatchOff}</p> : (
        <>
          <p class="muted">{t.intro}</p>
          {!codes.length ? <p class="muted">{t.loading}</p> : (
            <table class="list stack statuses" id="status-table">
              <thead><tr><th>{t.code}</th><th>{t.label}</th><th>{t.color}</th><th>{t.alarm}</th><th>{t.position}</th><th><span class="sr-only">{t.save}</span></th></tr></thead>
              <tbody>{codes.map((code) => <StatusRow key={code} code={code} />)}</tbody>
            </table>
          )}
          <div id="statuses-result" class="result ok" role="status" aria-live="polite">{deletedNote.value}</div>
          <AddStatus />
        </>
      )}
    </section>
  );
}
