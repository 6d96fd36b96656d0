import { useEffect, useRef, useState } from 'preact/hooks';
import { texts } from '../../app/i18n.ts';
import type { CreatedKey } from './key-form.tsx';

const text = texts({
  title: (name: string) => `Dein neuer Schlüssel „${name}“`,
  warn: 'Kopiere ihn jetzt und bewahre ihn sicher auf: Er wird nie wieder angezeigt. Wer ihn hat, handelt im Namen dieser Wache.',
  copy: 'Kopieren', copied: 'In die Zwischenablage kopiert.', copyFailed: 'Kopieren ging nicht – markiere den Schlüssel und kopiere ihn selbst.',
  done: 'Ich habe ihn gesichert', key: 'API-Schlüssel',
}, {
  title: (name: string) => `Your new key “${name}”`,
  warn: 'Copy it now and keep it safe: it will never be shown again. Whoever holds it acts on behalf of this station.',
  copy: 'Copy', copied: 'Copied to the clipboard.', copyFailed: 'Copying failed – select the key and copy it yourself.',
  done: 'I have saved it', key: 'API key',
});

async function copyText(input: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    input.select(); // no clipboard permission (plain HTTP, an old browser): the selection copies the old way
    return document.execCommand('copy');
  }
}

/** The one sight of a new key: read-only field, copy button, and the warning that it will not come back. */
export function CreatedKeyBox({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const t = text();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  useEffect(() => {
    setCopied(null);
    input.current?.focus();
    input.current?.select();
  }, [created.id]);
  return (
    <div id="created-key-box" class="created-key" role="alert">
      <h3>{t.title(created.name)}</h3>
      <p class="warn-text">{t.warn}</p>
      <div class="copy-row">
        <input ref={input} id="created-key" class="mono" readOnly value={created.key} aria-label={t.key} onFocus={(e) => (e.target as HTMLInputElement).select()} />
        <button id="copy-key" type="button" class="primary" onClick={async () => setCopied(await copyText(input.current!))}>{t.copy}</button>
      </div>
      <div id="copy-result" role="status" aria-live="polite" class={copied === false ? 'result error' : 'result ok'}>
        {copied === null ? '' : copied ? t.copied : t.copyFailed}
      </div>
      <button id="created-key-done" type="button" onClick={onDone}>{t.done}</button>
    </div>
  );
}
