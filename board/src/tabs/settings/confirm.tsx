import { useEffect, useRef, useState } from 'preact/hooks';
import { texts } from '../../app/i18n.ts';

const text = texts({ really: 'Wirklich löschen?', yes: 'Ja, löschen', cancel: 'Abbrechen' }, { really: 'Really delete?', yes: 'Yes, delete', cancel: 'Cancel' });

/**
 * A delete button that asks in place ("Wirklich löschen?") before it acts: no browser dialog, and
 * the question stands beside what it deletes. Focus moves to "Abbrechen", so a second Enter is harmless.
 */
export function ConfirmDelete({ label, what, busy, onConfirm, idPrefix }: {
  label: string; what: string; busy: boolean; onConfirm: () => Promise<unknown> | void; idPrefix: string;
}) {
  const t = text();
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => { if (asking) cancel.current?.focus(); }, [asking]);
  if (!asking) {
    return <button id={`${idPrefix}-delete`} type="button" class="danger small" aria-label={`${label}: ${what}`} disabled={busy} onClick={() => setAsking(true)}>{label}</button>;
  }
  return (
    <span class="confirm" role="group" aria-label={`${t.really} ${what}`}>
      <span class="confirm-q">{t.really}</span>
      <button id={`${idPrefix}-confirm`} type="button" class="danger small" disabled={busy}
        onClick={async () => { await onConfirm(); setAsking(false); }}>{t.yes}</button>
      <button ref={cancel} id={`${idPrefix}-cancel`} type="button" class="small" onClick={() => setAsking(false)}>{t.cancel}</button>
    </span>
  );
}
