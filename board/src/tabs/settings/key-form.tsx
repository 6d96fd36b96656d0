import { useState } from 'preact/hooks';
import { lacksForScope } from '../../../../contract/scope-grants.ts';
import { api } from '../../app/api.ts';
import { texts } from '../../app/i18n.ts';
import { access } from '../../app/session.ts';
import type { Out } from '../../app/types.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { capabilityText } from '../../app/capability-labels.ts';
import { gameResourceScopes, scopeGroups, scopeText, type Scope } from './scope-labels.ts';

export type CreatedKey = Out['apiKeys']['create'];

const text = texts({
  title: 'Neuer Schlüssel', name: 'Name', namePlaceholder: 'z. B. FiveM Leitstelle', kind: 'Zugriff',
  scoped: 'Eingeschränkt: nur die gewählten Rechte', scopedHint: 'Für Spiel-Skripte. Die Rechte lassen sich später nicht ändern.',
  unscoped: 'Vollzugriff auf diese Wache', unscopedHint: 'Wie ein Schlüssel per Discord-Befehl: darf alles, auch Schlüssel verwalten.',
  unscopedAdminOnly: 'Nur Admins der Wache können ihn erstellen: Er darf alles, auch Rechte vergeben.',
  ownRightsOnly: 'Ein Schlüssel darf nie mehr als du: Du kannst nur Rechte vergeben, die dein Rang selbst hat.',
  scopeAdminOnly: 'Nur für Admins der Wache: Damit meldet sich das Spiel im Namen von Mitgliedern an.',
  scopeLacks: (what: string) => `Nicht für dich: Dazu müsstest du selbst ${what} dürfen.`,
  and: ' und ',
  preset: 'Alles fürs Leitstellen-Skript', none: 'Keine', create: 'Schlüssel erstellen', scopes: 'Rechte (Scopes)',
  created: (name: string) => `Schlüssel „${name}“ erstellt.`,
}, {
  title: 'New key', name: 'Name', namePlaceholder: 'e.g. FiveM dispatch', kind: 'Access',
  scoped: 'Limited: only the chosen rights', scopedHint: 'For game scripts. The rights cannot be changed later.',
  unscoped: 'Full access to this station', unscopedHint: 'Like a key made by Discord command: may do everything, including managing keys.',
  unscopedAdminOnly: 'Only admins of this station can create one: it may do everything, including handing out rights.',
  ownRightsOnly: 'A key never does more than you: you can only hand out rights your rank has itself.',
  scopeAdminOnly: 'Admins of this station only: with it the game signs in on behalf of members.',
  scopeLacks: (what: string) => `Not for you: you would have to be allowed to ${what} yourself.`,
  and: ' and ',
  preset: 'Everything the dispatch script needs', none: 'None', create: 'Create key', scopes: 'Rights (scopes)',
  created: (name: string) => `Key “${name}” created.`,
});

/** Why the signed-in person may not give `scope`, in words; null when they may (the server decides the same by auth/scope-grants.ts). */
function whyNot(scope: Scope): string | null {
  const a = access.value;
  const lacks = lacksForScope({ isAdmin: !!a?.isAdmin, capabilities: a?.capabilities ?? [] }, scope);
  if (!lacks) return null;
  const t = text();
  if (lacks === 'admin') return t.scopeAdminOnly;
  const words = capabilityText();
  return t.scopeLacks(lacks.map((c) => words[c]).join(t.and));
}

/** Name, scoped or unscoped, the scopes by group; hands the created key (its only sight) to `onCreated`. */
export function KeyForm({ onCreated }: { onCreated: (key: CreatedKey) => void }) {
  const t = text();
  const st = scopeText();
  const action = useAction();
  const [name, setName] = useState('');
  const [fullWanted, setFull] = useState(false);
  const [chosenWanted, setChosen] = useState<Set<Scope>>(new Set());
  // An unscoped key acts as the guild's admin: only guild admins are offered one (the server refuses others anyway).
  const isAdmin = !!access.value?.isAdmin;
  const full = fullWanted && isAdmin;
  const chosen = new Set([...chosenWanted].filter((s) => !whyNot(s)));
  const toggle = (s: Scope, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(s);
    else next.delete(s);
    setChosen(next);
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const created = await action.run(
      () => (full ? api.apiKeys.createUnscoped.mutate({ name }) : api.apiKeys.create.mutate({ name, scopes: [...chosen] })),
      (k) => t.created(k.name),
    );
    if (!created) return;
    setName('');
    setChosen(new Set());
    onCreated(created);
  };
  return (
    <form id="key-form" class="key-form" onSubmit={submit} noValidate>
      <h3>{t.title}</h3>
      <label>{t.name}
        <input id="key-name" value={name} maxLength={64} placeholder={t.namePlaceholder} autoComplete="off"
          onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      </label>
      <fieldset class="key-kind">
        <legend>{t.kind}</legend>
        <label class="check"><input type="radio" name="key-kind" id="key-scoped" checked={!full} onChange={() => setFull(false)} />
          <span><b>{t.scoped}</b><small>{t.scopedHint}</small></span></label>
        <label class={isAdmin ? 'check' : 'check unavailable'}>
          <input type="radio" name="key-kind" id="key-unscoped" checked={full} disabled={!isAdmin} onChange={() => setFull(true)} aria-describedby="key-unscoped-hint" />
          <span><b>{t.unscoped}</b><small id="key-unscoped-hint">{isAdmin ? t.unscopedHint : t.unscopedAdminOnly}</small></span></label>
      </fieldset>
      {!full && (
        <fieldset class="scopes" id="key-scopes">
          <legend>{t.scopes}</legend>
          {!isAdmin && <p class="muted small" id="key-own-rights">{t.ownRightsOnly}</p>}
          <div class="row">
            <button type="button" class="small" id="scopes-preset" onClick={() => setChosen(new Set(gameResourceScopes.filter((s) => !whyNot(s))))}>{t.preset}</button>
            <button type="button" class="small" onClick={() => setChosen(new Set())}>{t.none}</button>
          </div>
          <div class="scope-groups">
            {scopeGroups.map((g) => (
              <div class="scope-group" role="group" aria-label={st.groups[g.group]}>
                <h4>{st.groups[g.group]}</h4>
                {g.scopes.map((s) => {
                  const refused = whyNot(s);
                  return (
                    <label class={refused ? 'check unavailable' : 'check'}>
                      <input type="checkbox" data-scope={s} checked={chosen.has(s)} disabled={!!refused}
                        onChange={(e) => toggle(s, (e.target as HTMLInputElement).checked)} />
                      <span>{st.scopes[s]}<small class="mono">{s}</small>{refused && <small class="why-not">{refused}</small>}</span>
                    </label>
                  );
                })}
              </div>
            ))}
          </div>
        </fieldset>
      )}
      <div class="row">
        <button id="key-create" type="submit" class="primary" disabled={action.busy}>{t.create}</button>
      </div>
      <Result id="key-result" action={action} />
    </form>
  );
}
