import { useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { statuses } from '../../app/catalogue.ts';
import { aaoLimits } from '../../../../contract/aao.ts';
import { live } from '../../live/board-live.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { ConfirmDelete } from './confirm.tsx';
import { aaoText } from './aao-words.ts';
import { unitTypes, type UnitType } from './aao-state.ts';
import { applyLocally, Chip } from './status-util.tsx';

const byCode = (list: UnitType[]) => [...list].sort((a, b) => a.position - b.position || a.code.localeCompare(b.code));
function typeLocally(code: string, saved: UnitType | null) {
  const rest = unitTypes.peek().filter((x) => x.code.toLowerCase() !== code.toLowerCase());
  unitTypes.value = byCode(saved ? [...rest, saved] : rest);
}

/** One type: its label edited in place (Enter saves), deleted with a question. */
function TypeRow({ type }: { type: UnitType }) {
  const t = aaoText();
  const action = useAction();
  const [label, setLabel] = useState<string | null>(null);
  const id = `aao-type-${type.code.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const save = () => label !== null && action.run(async () => {
    const saved = await api.aao.putUnitType.mutate({ code: type.code, label });
    typeLocally(type.code, saved);
    setLabel(null);
    return saved;
  }, (s) => t.typeSaved(s.code));
  const remove = async () => {
    const r = await action.run(() => api.aao.deleteUnitType.mutate({ code: type.code }), (d) => t.typeDeleted(d.code));
    if (r) typeLocally(type.code, null);
  };
  return (
    <tr id={id} data-type={type.code} class={label !== null ? 'dirty' : ''}>
      <td data-label={t.code}><b>{type.code}</b></td>
      <td data-label={t.label} class="label">
        <input id={`${id}-label`} aria-label={`${t.label} ${t.typeOf(type.code)}`} value={label ?? type.label} maxLength={aaoLimits.typeLabel}
          onInput={(e) => setLabel((e.target as HTMLInputElement).value)}
          onKeyDown={(e) => { if (e.key === 'Enter') void save(); else if (e.key === 'Escape') setLabel(null); }} />
      </td>
      <td data-label={t.units} class="num">{type.units}</td>
      <td class="actions">
        <span class="row">
          {label !== null && <button type="button" class="primary small" id={`${id}-save`} disabled={action.busy} onClick={() => void save()}>{t.save}</button>}
          <ConfirmDelete idPrefix={id} label={t.delete} what={t.typeOf(type.code)} busy={action.busy} onConfirm={remove} />
        </span>
        <Result id={`${id}-result`} action={action} />
      </td>
    </tr>
  );
}

function AddType() {
  const t = aaoText();
  const action = useAction();
  const [code, setCode] = useState('');
  const [label, setLabel] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    const saved = await action.run(() => api.aao.putUnitType.mutate({ code: code.trim(), label }), (s) => t.typeSaved(s.code));
    if (!saved) return;
    typeLocally(saved.code, saved);
    setCode('');
    setLabel('');
  };
  return (
    <form id="aao-type-new" class="aao-add row" onSubmit={submit} noValidate>
      <label>{t.code}<input id="aao-type-new-code" class="code-input" value={code} maxLength={aaoLimits.typeCode} autoComplete="off" onInput={(e) => setCode((e.target as HTMLInputElement).value)} /></label>
      <label class="grow">{t.label}<input id="aao-type-new-label" value={label} maxLength={aaoLimits.typeLabel} onInput={(e) => setLabel((e.target as HTMLInputElement).value)} /></label>
      <button type="submit" id="aao-type-new-save" disabled={action.busy || !code.trim()}>{t.addType}</button>
      <Result id="aao-type-new-result" action={action} />
    </form>
  );
}

export function AaoTypes() {
  const t = aaoText();
  const list = unitTypes.value;
  return (
    <section class="aao-part" aria-labelledby="aao-types-title">
      <h3 id="aao-types-title">{t.typesTitle} <span class="pill">{list.length}</span></h3>
      {!list.length ? <p class="muted" id="aao-no-types">{t.noTypes}</p> : (
        <table class="list stack aao-types" id="aao-types">
          <thead><tr><th>{t.code}</th><th>{t.label}</th><th>{t.units}</th><th><span class="sr-only">{t.save}</span></th></tr></thead>
          <tbody>{list.map((x) => <TypeRow key={x.code} type={x} />)}</tbody>
        </table>
      )}
      <AddType />
    </section>
  );
}

/** Each unit's type, chosen from the catalogue (a change saves at once). */
export function AaoUnitTypes() {
  const t = aaoText();
  const action = useAction();
  const units = live.units.values().sort((a, b) => a.callsign.localeCompare(b.callsign, 'de', { numeric: true }));
  const types = unitTypes.value;
  if (!units.length || !types.length) return null;
  const untyped = units.filter((u) => !u.type).length;
  const setType = (callsign: string, type: string | null) => action.run(() => api.units.update.mutate({ callsign, type }), (u) => t.unitTyped(u.callsign, u.type));
  return (
    <details class="aao-part" id="aao-units" open={untyped > 0}>
      <summary><h3>{t.unitsTitle}</h3> {untyped > 0 && <span class="pill warn" id="aao-untyped">{t.untyped(untyped)}</span>}</summary>
      <p class="muted">{t.unitsIntro}</p>
      <ul class="aao-unit-types">
        {units.map((u) => (
          <li data-unit={u.callsign}>
            <label>
              <span><b>{u.callsign}</b>{u.orgUnit ? <small class="muted"> · {u.orgUnit}</small> : null}</span>
              <select id={`aao-unit-${u.callsign.replace(/[^A-Za-z0-9_-]/g, '_')}`} value={u.type ?? ''} disabled={action.busy}
                onChange={(e) => void setType(u.callsign, (e.target as HTMLSelectElement).value || null)}>
                <option value="">{t.noType}</option>
                {types.map((x) => <option value={x.code}>{x.code}{x.label ? ` – ${x.label}` : ''}</option>)}
              </select>
            </label>
          </li>
        ))}
      </ul>
      <Result id="aao-units-result" action={action} />
    </details>
  );
}

/** Which statuses count as available for a proposal (the catalogue's `available` flag). */
export function AaoAvailable() {
  const t = aaoText();
  const action = useAction();
  const list = statuses.value;
  if (!list.length) return null;
  const toggle = (code: string, available: boolean) => action.run(async () => {
    const s = list.find((x) => x.code === code)!;
    const saved = await api.units.putStatus.mutate({ code, label: s.label, color: s.color, alarm: s.alarm, available });
    applyLocally(code, saved);
    return saved;
  }, (s) => t.availableSaved(s.code, s.available));
  return (
    <fieldset class="aao-part aao-available" id="aao-available">
      <legend>{t.availableTitle}</legend>
      <p class="muted">{t.availableIntro}</p>
      <div class="aao-status-checks">
        {list.map((s) => (
          <label class="check inline" title={s.label}>
            <input type="checkbox" id={`aao-available-${s.code}`} checked={s.available} disabled={action.busy}
              onChange={(e) => void toggle(s.code, (e.target as HTMLInputElement).checked)} />
            <Chip code={s.code} label={s.label} color={s.color} />
          </label>
        ))}
      </div>
      <Result id="aao-available-result" action={action} />
    </fieldset>
  );
}
