import { texts } from '../../app/i18n.ts';
import { ShownOnce } from '../../ui/shown-once.tsx';
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

/** The one sight of a new key. */
export function CreatedKeyBox({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const t = text();
  return (
    <ShownOnce value={created.key} id={created.id} title={t.title(created.name)} warning={t.warn} class="created-key" onDone={onDone}
      words={{ label: t.key, copy: t.copy, copied: t.copied, copyFailed: t.copyFailed, done: t.done }}
      ids={{ box: 'created-key-box', field: 'created-key', copy: 'copy-key', result: 'copy-result', done: 'created-key-done' }} />
  );
}
