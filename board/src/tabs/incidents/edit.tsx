import { useState } from 'preact/hooks';
import { api, httpStatusOf } from '../../app/api.ts';
import { when } from '../../app/i18n.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { draftOf, placeCoords, placeOf, placeText, samePlace, type Place, type PlaceDraft } from './location.ts';
import { loadTimeline, timeline, writeSheet, type Sheet } from './store.ts';
import { incidentText, priorityText } from './words.ts';
import { callLimits, incidentLimits } from '../../../../contract/limits.ts';
import { PickOnMap } from '../map/pick-button.tsx';

interface Fields { keyword: string; priority: number; place: PlaceDraft }
/** What the person is editing, and the sheet as it was when they began (its version is what the save sends). */
interface Draft { fields: Fields; base: Sheet }

const fieldsOf = (s: Sheet): Fields => ({ keyword: s.keyword, priority: s.priority, place: draftOf(s.location as Place) });

/**
 * Keyword, priority and location of an open sheet. While nobody types, the fields follow the sheet
 * live; from the first keystroke they hold the person's draft and the version it started from. A
 * save sends that version: if someone else saved meanwhile the server answers 409, and the sheet
 * loads afresh with their values and the person's input shown beside it, never overwritten.
 */
export function SheetForm({ s, canEdit }: { s: Sheet; canEdit: boolean }) {
  const t = incidentText();
  const action = useAction();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [conflict, setConflict] = useState<{ yours: string; by: string | null; at: number | null } | null>(null);
  const f = draft && canEdit ? draft.fields : fieldsOf(s);
  const edit = (change: Partial<Fields> | Partial<PlaceDraft>, place = false) => {
    const current = draft ?? { fields: fieldsOf(s), base: s };
    const fields = place ? { ...current.fields, place: { ...current.fields.place, ...change } } : { ...current.fields, ...change };
    setDraft({ ...current, fields: fields as Fields });
  };

  const save = async (e: Event) => {
    e.preventDefault();
    if (!draft) return;
    const { fields, base } = draft;
    const location = placeOf(fields.place);
    if (location === 'badCoords') return void action.run(() => Promise.reject(new Error(t.badCoords)));
    const changes: { keyword?: string; priority?: number; location?: Place } = {};
    if (fields.keyword.trim() !== base.keyword) changes.keyword = fields.keyword.trim();
    if (fields.priority !== base.priority) changes.priority = fields.priority;
    if (!samePlace(location, base.location as Place)) changes.location = location;
    if (!Object.keys(changes).length) {
      setDraft(null);
      return void action.run(async () => null, () => t.nothing);
    }
    await action.run(async () => {
      try {
        await writeSheet(() => api.incidents.update.mutate({ number: s.number, version: base.version, ...changes } as Parameters<typeof api.incidents.update.mutate>[0]));
        setConflict(null);
        setDraft(null);
        return t.saved;
      } catch (err) {
        if (httpStatusOf(err) !== 409) throw err;
        const yours = [
          changes.keyword !== undefined && `${t.keyword} „${changes.keyword}“`,
          changes.priority !== undefined && `${t.priority} ${changes.priority} (${priorityText()[changes.priority]})`,
          changes.location !== undefined && `${t.location} „${[placeText(changes.location), placeCoords(changes.location)].filter(Boolean).join(' · ') || '–'}“`,
        ].filter(Boolean).join(' · ');
        setDraft(null);
        await loadTimeline(s.number).catch(() => {});
        // Who saved in between: the newest change on the timeline just loaded.
        const last = [...(timeline(s.number).peek() ?? [])].reverse().find((x) => x.kind === 'updated' || x.kind === 'closed');
        setConflict({ yours, by: last?.by.name ?? null, at: last?.at ?? null });
        return null;
      }
    }, (msg) => msg);
  };

  const off = !canEdit;
  return (
    <form class="sheet-form" id="sheet-form" onSubmit={save}>
      {conflict !== null && (
        <div class="sheet-conflict" id="sheet-conflict" role="alert">
          <p><b>{t.conflict(conflict.by, conflict.at === null ? null : when(conflict.at))}</b></p>
          <p>{t.yours} {conflict.yours}</p>
          <button type="button" class="small" onClick={() => setConflict(null)}>OK</button>
        </div>
      )}
      {draft && draft.base.version !== s.version && <p class="sheet-stale" id="sheet-stale">{t.changedMeanwhile(s.version)}</p>}
      <div class="sheet-fields">
        <label class="f-keyword">{t.keyword}<input id="sheet-keyword" maxLength={incidentLimits.keyword} required disabled={off} value={f.keyword} onInput={(e) => edit({ keyword: e.currentTarget.value })} /></label>
        <label class="f-priority">{t.priority}
          <select id="sheet-priority" disabled={off} value={f.priority} onChange={(e) => edit({ priority: Number(e.currentTarget.value) })}>
            {[1, 2, 3].map((p) => <option value={p}>{p} – {priorityText()[p]}</option>)}
          </select>
        </label>
        <label class="f-text">{t.locText}<input id="sheet-loc-text" maxLength={callLimits.locationText} disabled={off} value={f.place.text} onInput={(e) => edit({ text: e.currentTarget.value }, true)} /></label>
        <label class="f-street">{t.street}<input id="sheet-street" maxLength={callLimits.street} disabled={off} value={f.place.street} onInput={(e) => edit({ street: e.currentTarget.value }, true)} /></label>
        <label class="f-postal">{t.postal}<input id="sheet-postal" maxLength={callLimits.postal} disabled={off} value={f.place.postal} onInput={(e) => edit({ postal: e.currentTarget.value }, true)} /></label>
        <label class="f-x">{t.x}<input id="sheet-x" inputMode="decimal" disabled={off} value={f.place.x} onInput={(e) => edit({ x: e.currentTarget.value }, true)} /></label>
        <label class="f-y">{t.y}<input id="sheet-y" inputMode="decimal" disabled={off} value={f.place.y} onInput={(e) => edit({ y: e.currentTarget.value }, true)} /></label>
        {!off && <PickOnMap onPick={(p) => edit({ x: String(p.x), y: String(p.y), ...(p.postal ? { postal: p.postal } : {}) }, true)} />}
      </div>
      {canEdit && (
        <div class="row">
          <button type="submit" class="primary" id="sheet-save" disabled={!draft || action.busy}>{t.save}</button>
          {draft && <button type="button" id="sheet-discard" onClick={() => { setDraft(null); action.clear(); }}>{t.discard}</button>}
          <Result action={action} id="sheet-result" />
        </div>
      )}
    </form>
  );
}
