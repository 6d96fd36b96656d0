import { useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { incidentLimits } from '../../../../contract/limits.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { ConfirmDelete } from './confirm.tsx';
import { aaoText } from './aao-words.ts';
import { aaoKeywords, keywordLocally, type AaoKeyword } from './aao-state.ts';
import { RequirementsEditor, requirementSummary, type RequirementRow } from './aao-requirements.tsx';

interface Draft { keyword: string; priority: number; requirements: RequirementRow[] }

function PrioritySelect({ id, value, onChange }: { id: string; value: number; onChange: (p: number) => void }) {
  const t = aaoText();
  return (
    <select id={id} aria-label={t.priority} value={String(value)} onChange={(e) => onChange(Number((e.target as HTMLSelectElement).value))}>
      {[1, 2, 3].map((p) => <option value={String(p)}>{t.priorities[p]}</option>)}
    </select>
  );
}

/** The fields of a keyword being written: text, priority, the rows it sends. */
function KeywordFields({ idPrefix, draft, onChange }: { idPrefix: string; draft: Draft; onChange: (d: Draft) => void }) {
  const t = aaoText();
  return (
    <div class="aao-keyword-fields">
      <div class="row">
        <label class="grow">{t.keyword}<input id={`${idPrefix}-text`} value={draft.keyword} maxLength={incidentLimits.keyword} autoComplete="off"
          onInput={(e) => onChange({ ...draft, keyword: (e.target as HTMLInputElement).value })} /></label>
        <label>{t.priority}<PrioritySelect id={`${idPrefix}-priority`} value={draft.priority} onChange={(priority) => onChange({ ...draft, priority })} /></label>
      </div>
      <RequirementsEditor idPrefix={idPrefix} rows={draft.requirements} onChange={(requirements) => onChange({ ...draft, requirements })} />
    </div>
  );
}

/** One keyword: shown as a line, edited in place. */
function KeywordItem({ k }: { k: AaoKeyword }) {
  const t = aaoText();
  const action = useAction();
  const [draft, setDraft] = useState<Draft | null>(null);
  const id = `aao-kw-${k.id}`;
  const save = () => draft && action.run(async () => {
    const saved = await api.aao.updateKeyword.mutate({ id: k.id, keyword: draft.keyword, priority: draft.priority, requirements: draft.requirements });
    keywordLocally(k.id, saved);
    setDraft(null);
    return saved;
  }, (s) => t.keywordSaved(s.keyword));
  const remove = async () => {
    const r = await action.run(() => api.aao.deleteKeyword.mutate({ id: k.id }), (d) => t.keywordDeleted(d.keyword));
    if (r) keywordLocally(k.id, null);
  };
  return (
    <li id={id} class={draft ? 'aao-keyword editing' : 'aao-keyword'} data-keyword={k.keyword}>
      {!draft ? (
        <div class="aao-keyword-line">
          <span class={`pill prio p${k.priority}`} title={t.priority}>P{k.priority}</span>
          <b class="aao-kw-text">{k.keyword}</b>
          <span class="muted aao-kw-sends">{requirementSummary(k.requirements)}</span>
          <span class="row push">
            <button type="button" class="small" id={`${id}-edit`} aria-label={`${t.edit}: ${t.keywordOf(k.keyword)}`}
              onClick={() => { action.clear(); setDraft({ keyword: k.keyword, priority: k.priority, requirements: k.requirements.map((r) => ({ ...r })) }); }}>{t.edit}</button>
            <ConfirmDelete idPrefix={id} label={t.delete} what={t.keywordOf(k.keyword)} busy={action.busy} onConfirm={remove} />
          </span>
        </div>
      ) : (
        <form onSubmit={(e) => { e.preventDefault(); void save(); }}>
          <KeywordFields idPrefix={id} draft={draft} onChange={setDraft} />
          <div class="row">
            <button type="submit" class="primary small" id={`${id}-save`} disabled={action.busy}>{t.save}</button>
            <button type="button" class="small" id={`${id}-reset`} onClick={() => { setDraft(null); action.clear(); }}>{t.reset}</button>
          </div>
        </form>
      )}
      <Result id={`${id}-result`} action={action} />
    </li>
  );
}

const blank: Draft = { keyword: '', priority: 2, requirements: [] };

function AddKeyword() {
  const t = aaoText();
  const action = useAction();
  const [draft, setDraft] = useState<Draft>(blank);
  const submit = async (e: Event) => {
    e.preventDefault();
    const saved = await action.run(() => api.aao.createKeyword.mutate(draft), (k) => t.keywordAdded(k.keyword));
    if (!saved) return;
    keywordLocally(saved.id, saved);
    setDraft(blank);
  };
  return (
    <form id="aao-kw-new" class="aao-add" onSubmit={submit} noValidate>
      <h4>{t.newKeyword}</h4>
      <KeywordFields idPrefix="aao-kw-new" draft={draft} onChange={setDraft} />
      <button type="submit" class="primary" id="aao-kw-new-save" disabled={action.busy || !draft.keyword.trim()}>{t.addKeyword}</button>
      <Result id="aao-kw-new-result" action={action} />
    </form>
  );
}

/** The keyword catalogue: every Stichwort with its priority and what it sends. */
export function AaoKeywords() {
  const t = aaoText();
  const list = aaoKeywords.value;
  return (
    <section class="aao-part" aria-labelledby="aao-keywords-title">
      <h3 id="aao-keywords-title">{t.keywordsTitle} <span class="pill">{list.length}</span></h3>
      {!list.length ? <p class="muted">{t.noKeywords}</p> : (
        <ul class="aao-keywords" id="aao-keywords">{list.map((k) => <KeywordItem key={k.id} k={k} />)}</ul>
      )}
      <AddKeyword />
    </section>
  );
}
