import { useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { when } from '../../app/i18n.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { putEntry, timeline } from './store.ts';
import { incidentText } from './words.ts';
import { incidentLimits } from '../../../../contract/limits.ts';

/** The entry input, at hand above the timeline: Enter adds, Shift+Enter is a new line. */
function EntryInput({ n }: { n: number }) {
  const t = incidentText();
  const action = useAction();
  const [text, setText] = useState('');
  const add = async () => {
    const value = text.trim();
    if (!value || action.busy) return;
    const entry = await action.run(() => api.incidents.addEntry.mutate({ number: n, text: value }), () => t.added);
    if (!entry) return;
    putEntry(n, entry);
    setText('');
  };
  return (
    <form class="entry-input" onSubmit={(e) => { e.preventDefault(); void add(); }}>
      <label class="grow">{t.entry}
        <textarea id="entry-text" rows={2} maxLength={incidentLimits.entryText} placeholder={t.entryPlaceholder} value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => { if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); void add(); } }} />
      </label>
      <button type="submit" class="primary" id="entry-add" disabled={!text.trim() || action.busy}>{t.add}</button>
      <Result action={action} id="entry-result" />
    </form>
  );
}

/** The sheet's timeline, newest first (what just happened is read first, right under the input). */
export function Timeline({ n, canEdit }: { n: number; canEdit: boolean }) {
  const t = incidentText();
  const entries = timeline(n).value;
  return (
    <section class="sheet-timeline" aria-labelledby="timeline-title">
      <h3 id="timeline-title">{t.timeline} <span class="muted">({t.newestFirst})</span></h3>
      {canEdit && <EntryInput n={n} />}
      {!entries ? <p class="muted">{t.loading}</p> : !entries.length ? <p class="muted">{t.noEntries}</p> : (
        <ol class="timeline" id="timeline" reversed>
          {[...entries].reverse().map((e) => (
            <li key={e.id} class={`entry kind-${e.kind}`} data-entry={e.id} data-kind={e.kind}>
              <time dateTime={new Date(e.at).toISOString()}>{when(e.at)}</time>
              <span class="entry-kind">{t.kinds[e.kind]}</span>
              <span class="entry-by">{e.by.name ?? '–'}</span>
              <p class="entry-text">{e.text}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
