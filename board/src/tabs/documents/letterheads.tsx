import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { can } from '../../app/session.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { ConfirmDelete } from '../settings/confirm.tsx';
import { LetterheadForm } from './letterhead-form.tsx';
import { letterheads, letterheadsError, loadLetterheads, type Letterhead } from './state.ts';
import { docText } from './strings.ts';

type Id = Letterhead['id'];

/** `ids` with `id` moved to `to` (an index into the list without it). */
function moved(ids: Id[], id: Id, to: number): Id[] {
  const rest = ids.filter((x) => x !== id);
  rest.splice(Math.max(0, Math.min(rest.length, to)), 0, id);
  return rest;
}

/**
 * Briefköpfe: each with its server-rendered preview (a fresh image per version), ordered by the
 * arrow buttons (keyboard) or by dragging; edit in place with the version check; delete after asking.
 */
export function LetterheadsCard() {
  const t = docText().letterheads;
  const list = letterheads.value;
  const [editing, setEditing] = useState<Id | 'new' | null>(null);
  const [note, setNote] = useState('');
  const [dragged, setDragged] = useState<Id | null>(null);
  const order = useAction();
  const mayCreate = can('documents.letterhead.create');
  const mayEdit = can('documents.letterhead.edit');

  async function reorder(id: Id, to: number, name: string) {
    if (!list || order.busy) return;
    const ids = moved(list.map((l) => l.id), id, to);
    if (ids.every((x, i) => x === list[i]!.id)) return;
    // Shown at once in the new order; the server's answer (or the reload after a refusal) settles it.
    letterheads.value = ids.map((x) => list.find((l) => l.id === x)!);
    const r = await order.run(() => api.letterheads.reorder.mutate({ ids }), () => t.moved(name));
    await loadLetterheads();
    if (r) { keepFocus.current = { id, wentUp: to < list.findIndex((l) => l.id === id) }; focusMoved(true); }
  }
  // Focus stays with the moved letterhead: on the button used, or on the other one when it reached an
  // end. A later render that moves its item (a load that answers late, a live notice) blurs the
  // button, so every render puts focus back while it is lost, until the user focuses something else.
  const keepFocus = useRef<{ id: Id; wentUp: boolean } | null>(null);
  function focusMoved(always: boolean) {
    const k = keepFocus.current;
    if (!k || (!always && document.activeElement && document.activeElement !== document.body)) return;
    const up = document.getElementById(`letterhead-${k.id}-up`) as HTMLButtonElement | null;
    const down = document.getElementById(`letterhead-${k.id}-down`) as HTMLButtonElement | null;
    const preferred = k.wentUp ? up : down;
    (preferred && !preferred.disabled ? preferred : k.wentUp ? down : up)?.focus();
  }
  useLayoutEffect(() => focusMoved(false), [list]);
  useEffect(() => {
    const away = (e: FocusEvent) => {
      const k = keepFocus.current;
      if (k && !(e.target instanceof HTMLElement && e.target.id.startsWith(`letterhead-${k.id}-`))) keepFocus.current = null;
    };
    document.addEventListener('focusin', away);
    return () => document.removeEventListener('focusin', away);
  }, []);
  const done = (message: string) => { setEditing(null); setNote(message); };

  return (
    <section id="documents-letterheads" class="card" aria-labelledby="letterheads-title">
      <h2 id="letterheads-title">{t.title} {list && <span class="pill">{list.length}</span>}
        {mayCreate && editing !== 'new' && <button id="letterhead-add" type="button" class="primary small push" onClick={() => { setNote(''); setEditing('new'); }}>{t.add}</button>}
      </h2>
      <p class="muted">{t.intro} {mayEdit && list && list.length > 1 && t.dragHint}</p>
      {editing === 'new' && <LetterheadForm editing={null} onDone={done} />}
      <div id="letterheads-result" class="result ok" role="status" aria-live="polite">{note}</div>
      <Result id="letterheads-order-result" action={order} />
      {letterheadsError.value && <p class="error">{letterheadsError.value}</p>}
      {!list ? <p class="muted">{t.loading}</p> : !list.length ? <p class="muted" id="letterheads-none">{t.none}</p> : (
        <ol id="letterhead-list" class="letterheads">
          {list.map((l, i) => (
            <li key={l.id} id={`letterhead-${l.id}`} data-letterhead-id={l.id} data-letterhead-name={l.name}
              class={dragged === l.id ? 'letterhead dragging' : 'letterhead'} draggable={mayEdit && editing === null}
              onDragStart={(e) => { setDragged(l.id); e.dataTransfer?.setData('text/plain', l.id); }}
              onDragEnd={() => setDragged(null)} onDragOver={(e) => { if (dragged !== null) e.preventDefault(); }}
              onDrop={(e) => { e.preventDefault(); const from = dragged; setDragged(null); if (from !== null && from !== l.id) void reorder(from, i, list.find((x) => x.id === from)!.name); }}>
              {editing === l.id ? <LetterheadForm editing={l} onDone={done} /> : (
                <LetterheadItem l={l} first={i === 0} last={i === list.length - 1} busy={order.busy}
                  onUp={() => void reorder(l.id, i - 1, l.name)} onDown={() => void reorder(l.id, i + 1, l.name)}
                  onEdit={() => { setNote(''); setEditing(l.id); }} onDeleted={setNote} />
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function LetterheadItem({ l, first, last, busy, onUp, onDown, onEdit, onDeleted }: {
  l: Letterhead; first: boolean; last: boolean; busy: boolean;
  onUp: () => void; onDown: () => void; onEdit: () => void; onDeleted: (message: string) => void;
}) {
  const t = docText().letterheads;
  const del = useAction();
  const remove = async () => {
    const r = await del.run(() => api.letterheads.delete.mutate({ id: l.id }));
    if (r) { onDeleted(t.deleted(l.name)); void loadLetterheads(); }
  };
  const idp = `letterhead-${l.id}`;
  return (
    <div class="letterhead-item">
      <img id={`${idp}-preview`} class="lh-preview" src={l.previewUrl} alt={t.preview(l.name)} />
      <div class="lh-side">
        <strong class="lh-name">{l.name}</strong>
        {l.organisation && <span class="muted">{l.organisation}</span>}
        <span class="row">
          {can('documents.letterhead.edit') && <>
            <button id={`${idp}-up`} type="button" class="small" disabled={first} aria-disabled={busy} onClick={onUp} aria-label={t.moveUp(t.of(l.name))} title={t.up}>↑</button>
            <button id={`${idp}-down`} type="button" class="small" disabled={last} aria-disabled={busy} onClick={onDown} aria-label={t.moveDown(t.of(l.name))} title={t.down}>↓</button>
            <button id={`${idp}-edit`} type="button" class="small" onClick={onEdit}>{t.edit}</button>
          </>}
          {can('documents.letterhead.delete') && <ConfirmDelete idPrefix={idp} label={t.delete} what={t.of(l.name)} busy={del.busy} onConfirm={remove} />}
        </span>
        <Result id={`${idp}-result`} action={del} />
      </div>
    </div>
  );
}
