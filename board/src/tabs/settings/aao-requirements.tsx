import { aaoLimits } from '../../../../contract/aao.ts';
import { aaoText } from './aao-words.ts';
import { unitTypes } from './aao-state.ts';

export interface RequirementRow { type: string; count: number }

/** "2× HLF, 1× DLK" (or "schickt nichts"). */
export function requirementSummary(rows: readonly RequirementRow[]): string {
  return rows.length ? rows.map((r) => `${r.count}× ${r.type}`).join(', ') : aaoText().nothingSent;
}

/**
 * The rows a keyword sends, edited in place: a type and a count per row, rows added and removed.
 * Types offered are the catalogue's; a row's own type stays selectable even when taken by another row.
 */
export function RequirementsEditor({ idPrefix, rows, onChange }: { idPrefix: string; rows: RequirementRow[]; onChange: (rows: RequirementRow[]) => void }) {
  const t = aaoText();
  const types = unitTypes.value;
  const set = (i: number, change: Partial<RequirementRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const free = types.filter((x) => !rows.some((r) => r.type === x.code));
  return (
    <div class="aao-rows">
      {rows.map((r, i) => (
        <div class="aao-row" data-row={i}>
          <input id={`${idPrefix}-count-${i}`} class="num count" type="number" min={1} max={aaoLimits.count} inputMode="numeric" aria-label={`${t.count} ${i + 1}`}
            value={Number.isFinite(r.count) ? r.count : ''} onInput={(e) => set(i, { count: (e.target as HTMLInputElement).valueAsNumber })} />
          <span aria-hidden="true">×</span>
          <select id={`${idPrefix}-type-${i}`} aria-label={`${t.type} ${i + 1}`} value={r.type} onChange={(e) => set(i, { type: (e.target as HTMLSelectElement).value })}>
            {types.filter((x) => x.code === r.type || !rows.some((o) => o.type === x.code)).map((x) => <option value={x.code}>{x.code}{x.label ? ` – ${x.label}` : ''}</option>)}
            {!types.some((x) => x.code === r.type) && <option value={r.type}>{r.type}</option>}
          </select>
          <button type="button" class="small" id={`${idPrefix}-remove-${i}`} aria-label={`${t.removeRow} ${i + 1}`} title={t.removeRow}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}>✕</button>
        </div>
      ))}
      {free.length > 0 && rows.length < aaoLimits.requirements && (
        <button type="button" class="small" id={`${idPrefix}-add-row`} onClick={() => onChange([...rows, { type: free[0].code, count: 1 }])}>{t.addRow}</button>
      )}
    </div>
  );
}
