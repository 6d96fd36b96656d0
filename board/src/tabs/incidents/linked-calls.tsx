import { useComputed } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from '../../app/api.ts';
import { when } from '../../app/i18n.ts';
import { can, moduleOn } from '../../app/session.ts';
import type { Out } from '../../app/types.ts';
import { callText } from '../calls/words.ts';
import { placeText } from './location.ts';
import { timeline } from './store.ts';
import './linked-calls.css';

type SheetCall = Out['calls']['ofSheet']['calls'][number];

/**
 * The game calls of sheet `n` (call triage): the one it was made of and those a dispatcher attached,
 * with what the caller said. Loaded when the sheet opens, and again whenever its timeline gains an
 * entry about a call (a take, an attach, a re-report, the game's resolve): those entries are the
 * live signal that its calls changed. The game's id of a call is only a tooltip.
 */
export function LinkedCalls({ n }: { n: number }) {
  const t = callText();
  const allowed = can('dispatch.view') && moduleOn('dispatch');
  const callEntries = useComputed(() => (timeline(n).value ?? []).filter((e) => e.kind === 'created' || e.kind === 'report' || e.kind === 'resolved').length).value;
  const [calls, setCalls] = useState<SheetCall[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (!allowed) return;
    let current = true;
    api.calls.ofSheet.query({ number: n })
      .then((r) => current && (setCalls(r.calls), setFailed(null)))
      .catch((err) => current && setFailed(messageOf(err)));
    return () => { current = false; };
  }, [n, callEntries, allowed]);
  if (!allowed || (calls !== null && !calls.length && !failed)) return null;
  return (
    <section class="sheet-calls" aria-labelledby="sheet-calls-title" id="sheet-calls">
      <h3 id="sheet-calls-title">{t.linkedTitle} {calls && <span class="muted">({calls.length})</span>}</h3>
      {failed && <p class="error" role="alert">{failed}</p>}
      {calls && (
        <ul class="sheet-call-list">
          {calls.map((c) => {
            const where = placeText(c.location);
            const caller = [c.caller?.name, c.caller?.phone].filter(Boolean).join(' · ');
            return (
              <li key={c.id} data-sheet-call={c.externalId} title={t.technical(c.externalId)}>
                <span class={`call-kind-tag kind-${c.kind}`}>{t.kinds[c.kind]}</span>
                <b>{c.title}</b>
                <span class="muted"> · {c.attachedAt ? t.linkedAttached : t.linkedMadeOf} {when(new Date(c.attachedAt ?? c.takenAt ?? c.createdAt).getTime())}</span>
                {c.status === 'resolved' && <span class="muted"> · {t.status.resolved}</span>}
                {c.reportCount > 1 && <span class="muted"> · {t.reports(c.reportCount)}</span>}
                {c.message && <p class="sheet-call-text">{c.message}</p>}
                {(where || caller) && <p class="sheet-call-text muted">{[where, caller && `${t.caller}: ${caller}`].filter(Boolean).join(' · ')}</p>}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
