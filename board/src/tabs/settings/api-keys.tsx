import { useEffect, useState } from 'preact/hooks';
import { api, httpStatusOf, messageOf } from '../../app/api.ts';
import { dateTime, texts } from '../../app/i18n.ts';
import { signedOut } from '../../app/session.ts';
import type { Out } from '../../app/types.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { ConfirmDelete } from './confirm.tsx';
import { CreatedKeyBox } from './created-key.tsx';
import { KeyForm, type CreatedKey } from './key-form.tsx';
import { scopeText, type Scope } from './scope-labels.ts';

type KeyInfo = Out['apiKeys']['list']['keys'][number];

const text = texts({
  title: 'API-Schlüssel', intro: 'Für Spiel-Skripte und Werkzeuge. Der Schlüssel selbst wird nur beim Erstellen gezeigt; danach nur seine letzten 4 Zeichen.',
  name: 'Name', key: 'Schlüssel', rights: 'Rechte', created: 'Erstellt', lastUsed: 'Zuletzt benutzt', never: 'nie',
  full: 'Vollzugriff', none: 'Noch keine Schlüssel.', loading: 'Lädt …', reload: 'Neu laden', delete: 'Löschen',
  deleted: (name: string) => `Schlüssel „${name}“ gelöscht. Er funktioniert ab sofort nicht mehr.`,
}, {
  title: 'API keys', intro: 'For game scripts and tools. The key itself is shown only when it is created; afterwards only its last 4 characters.',
  name: 'Name', key: 'Key', rights: 'Rights', created: 'Created', lastUsed: 'Last used', never: 'never',
  full: 'Full access', none: 'No keys yet.', loading: 'Loading …', reload: 'Reload', delete: 'Delete',
  deleted: (name: string) => `Key “${name}” deleted. It stops working at once.`,
});

function Scopes({ list }: { list: string[] | undefined }) {
  const st = scopeText();
  if (!list) return <span class="pill full">{text().full}</span>;
  return <span class="scope-pills">{list.map((s) => <span class="pill mono" title={st.scopes[s as Scope] ?? s}>{s}</span>)}</span>;
}

/** List (name, last 4, rights, created, last used), create with the one sight of the key, delete after asking. */
export function ApiKeys() {
  const t = text();
  const [keys, setKeys] = useState<KeyInfo[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const del = useAction();
  async function load() {
    try {
      setKeys((await api.apiKeys.list.query()).keys);
      setLoadError(null);
    } catch (err) {
      if (httpStatusOf(err) === 401) signedOut('expired');
      setLoadError(messageOf(err));
    }
  }
  useEffect(() => void load(), []);
  const remove = (k: KeyInfo) => del.run(async () => {
    const r = await api.apiKeys.delete.mutate({ id: k.id });
    if (created?.id === k.id) setCreated(null);
    await load();
    return r;
  }, () => t.deleted(k.name));

  return (
    <section id="settings-keys" class="card wide" aria-labelledby="keys-title">
      <h2 id="keys-title">{t.title} {keys && <span class="pill">{keys.length}</span>}
        <button type="button" class="small push" id="keys-reload" onClick={() => void load()}>{t.reload}</button></h2>
      <p class="muted">{t.intro}</p>
      {created && <CreatedKeyBox created={created} onDone={() => setCreated(null)} />}
      <div class="keys-layout">
        <div class="keys-list">
          {loadError && <p class="error" role="alert">{loadError}</p>}
          {!keys && !loadError && <p class="muted">{t.loading}</p>}
          {keys?.length === 0 && <p class="muted">{t.none}</p>}
          {!!keys?.length && (
            <table class="list stack" id="key-list">
              <thead><tr><th>{t.name}</th><th>{t.key}</th><th>{t.rights}</th><th>{t.created}</th><th>{t.lastUsed}</th><th><span class="sr-only">{t.delete}</span></th></tr></thead>
              <tbody>
                {keys.map((k) => (
                  <tr data-key-id={k.id} data-key-name={k.name}>
                    <td data-label={t.name} class="key-name">{k.name}</td>
                    <td data-label={t.key} class="mono">{k.scopes ? 'stmp_sc_' : 'stmp_'}…{k.last4}</td>
                    <td data-label={t.rights}><Scopes list={k.scopes} /></td>
                    <td data-label={t.created}>{dateTime(k.createdAt.getTime())}</td>
                    <td data-label={t.lastUsed} class="last-used">{k.lastUsedAt ? dateTime(k.lastUsedAt.getTime()) : t.never}</td>
                    <td class="actions"><ConfirmDelete idPrefix={`key-${k.id}`} label={t.delete} what={k.name} busy={del.busy} onConfirm={() => remove(k)} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Result id="keys-result" action={del} />
        </div>
        <KeyForm onCreated={(k) => { setCreated(k); void load(); }} />
      </div>
    </section>
  );
}
