import { useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { texts } from '../../app/i18n.ts';
import { modules as current, reloadAccess } from '../../app/session.ts';
import { Result, useAction } from '../../ui/action.tsx';
// The server's module list (pure data): a new module fails the type check here until it has a label.
import { modules as names, type ModuleName as Name } from '../../../../contract/modules.ts';

const text = texts<{ title: string; intro: string; on: (l: string) => string; off: (l: string) => string; modules: Record<Name, [string, string]> }>({
  title: 'Module', intro: 'Ein ausgeschalteter Bereich verschwindet auf allen Bildschirmen der Wache, seine Schnittstellen antworten mit 404. Die Daten bleiben erhalten.',
  on: (l) => `${l} ist eingeschaltet.`, off: (l) => `${l} ist ausgeschaltet.`,
  modules: {
    timeclock: ['Stempeluhr', 'Ein- und Ausstempeln, wer im Dienst ist, das Discord-Panel.'],
    dispatch: ['Leitstelle', 'Einheiten und Status, Disponenten, Bereitschaft, Meldungen aus dem Spiel.'],
    incidents: ['Einsätze', 'Einsatzblätter mit Zeitleiste und alarmierten Einheiten.'],
    personnel: ['Personal', 'Personalakten, Dienstnummern und Ränge.'],
    stats: ['Statistik', 'Dienstzeiten und Bestenliste.'],
    documents: ['Dokumente', 'Briefköpfe und Schreiben.'],
    uploads: ['Uploads', 'Dateien und Bilder hochladen.'],
    emojis: ['Emojis', 'Status-Emojis im Discord abgleichen.'],
    medic: ['Medic-Sync', 'Patientendaten aus dem Spiel (nur Schlüssel mit Vollzugriff).'],
  },
}, {
  title: 'Modules', intro: 'A switched-off section disappears from every board, and its API answers 404. Its data is kept.',
  on: (l) => `${l} is switched on.`, off: (l) => `${l} is switched off.`,
  modules: {
    timeclock: ['Time clock', 'Clocking in and out, who is on duty, the Discord panel.'],
    dispatch: ['Dispatch', 'Units and statuses, dispatchers, stand-by, calls from the game.'],
    incidents: ['Incidents', 'Incident sheets with timeline and assigned units.'],
    personnel: ['Personnel', 'Personnel files, badges and ranks.'],
    stats: ['Statistics', 'Duty hours and leaderboard.'],
    documents: ['Documents', 'Letterheads and letters.'],
    uploads: ['Uploads', 'Uploading files and images.'],
    emojis: ['Emojis', 'Syncing status emojis in Discord.'],
    medic: ['Medic sync', 'Patient data from the game (full-access keys only).'],
  },
});

/** One switch per module; the board's own tabs follow once access is re-read (here at once, elsewhere on the notice). */
export function Modules() {
  const t = text();
  const action = useAction();
  // The switch shows the wish while it is being saved, then the guild's switches as access reports them.
  const [pending, setPending] = useState<{ name: Name; on: boolean } | null>(null);
  const on = current.value as Record<string, boolean>;
  const flip = async (name: Name, next: boolean) => {
    setPending({ name, on: next });
    await action.run(async () => {
      const r = await api.settings.setModules.mutate({ modules: { [name]: next } });
      await reloadAccess();
      return r;
    }, (r) => (r.modules[name] ? t.on : t.off)(t.modules[name][0]));
    setPending(null);
  };
  return (
    <section id="settings-modules" class="card" aria-labelledby="modules-title">
      <h2 id="modules-title">{t.title}</h2>
      <p class="muted">{t.intro}</p>
      <ul class="switches">
        {names.map((name) => {
          const [label, hint] = t.modules[name];
          const checked = pending?.name === name ? pending.on : on[name] !== false;
          return (
            <li>
              <label class="switch" data-module={name}>
                <input type="checkbox" role="switch" id={`module-${name}`} checked={checked} disabled={action.busy}
                  aria-describedby={`module-${name}-hint`} onChange={(e) => void flip(name, (e.target as HTMLInputElement).checked)} />
                <span class="track" aria-hidden="true" />
                <span class="switch-text"><b>{label}</b><small id={`module-${name}-hint`}>{hint}</small></span>
              </label>
            </li>
          );
        })}
      </ul>
      <Result id="modules-result" action={action} />
    </section>
  );
}
