import { useEffect, useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { lang } from '../../app/i18n.ts';
import { guild } from '../../app/session.ts';
import { onNotice } from '../../live/board-live.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { isNewGuild, loadSeedable, seedable, seedableError, type AreaId, type SeedResult, type Seedable } from './state.ts';
import { setupText } from './strings.ts';
import './setup.css';

type TemplateId = Seedable['templates'][number]['id'];

/** Reloads what is empty while the wizard is open: a seed or a change elsewhere fills areas. */
function useSeedableLive() {
  useEffect(() => {
    void loadSeedable();
    const reload = () => void loadSeedable();
    const offs = [onNotice('settings', reload), onNotice('access', reload), onNotice('letterheads', reload),
      onNotice('units', (ops) => { if (ops.some((op) => op.op === 'statuses' || op.op === 'upsert' || op.op === 'delete')) reload(); })];
    return () => { for (const off of offs) off(); };
  }, []);
}

/**
 * Einrichtung: the onboarding wizard. Step 1 a template, step 2 the empty areas (each with what the
 * template creates there), then one seed; the server fills only empty areas, so running it again
 * changes nothing, and the wizard then says there is nothing left to do.
 */
export function SetupWizard() {
  const t = setupText();
  useSeedableLive();
  const s = seedable.value;
  const [template, setTemplate] = useState<TemplateId | null>(null);
  const [unchecked, setUnchecked] = useState<ReadonlySet<AreaId>>(new Set());
  const [result, setResult] = useState<SeedResult | null>(null);
  const action = useAction();
  if (!s) return <section class="card setup" id="setup"><h2>{t.title}</h2><p class="muted">{seedableError.value || t.loading}</p></section>;

  const chosen = template ?? s.templates[0]!.id;
  const open = s.areas.filter((a) => a.empty);
  const picked = open.filter((a) => !unchecked.has(a.area)).map((a) => a.area);
  const toggle = (area: AreaId, on: boolean) => {
    const next = new Set(unchecked);
    if (on) next.delete(area); else next.add(area);
    setUnchecked(next);
  };
  const run = () => action.run(async () => {
    const r = await api.onboarding.seed.mutate({ guildId: guild.peek()!.guildId, template: chosen, areas: picked });
    setResult(r);
    await loadSeedable();
    return r;
  });
  return (
    <section class="card setup" id="setup" aria-labelledby="setup-title">
      <h2 id="setup-title">{t.title}</h2>
      <p class="muted">{t.intro}</p>
      {isNewGuild(s) && <p class="setup-new" id="setup-new">{t.newGuild}</p>}
      {result && <SeedOutcome result={result} areas={s.areas} />}
      {!open.length ? <p id="setup-done" class="setup-done">{t.done}</p> : (
        <>
          <fieldset id="setup-templates">
            <legend>{t.template}</legend>
            <div class="templates">
              {s.templates.map((x) => (
                <label class={x.id === chosen ? 'template chosen' : 'template'}>
                  <input type="radio" name="setup-template" id={`setup-template-${x.id}`} value={x.id} checked={x.id === chosen} onChange={() => setTemplate(x.id)} />
                  <span>{x.title[lang.value]}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset id="setup-areas">
            <legend>{t.areas}</legend>
            <ul class="areas">
              {s.areas.map((a) => {
                const plan = a.templates[chosen]!;
                return (
                  <li class={a.empty ? 'area' : 'area filled'} data-area={a.area}>
                    <label class="check">
                      <input type="checkbox" id={`setup-area-${a.area}`} disabled={!a.empty || action.busy}
                        checked={a.empty && !unchecked.has(a.area)} onChange={(e) => toggle(a.area, (e.target as HTMLInputElement).checked)} />
                      <span>{a.title[lang.value]} <small>{a.empty ? t.creates(plan.count) : t.filled}</small></span>
                    </label>
                    {a.empty && (
                      <details class="plan">
                        <summary>{t.show}</summary>
                        <ul class="plan-items">{plan.items.map((item) => <li>{item}</li>)}</ul>
                      </details>
                    )}
                  </li>
                );
              })}
            </ul>
          </fieldset>
          <div class="row">
            <button id="setup-run" type="button" class="primary" disabled={action.busy || !picked.length} onClick={() => void run()}>{action.busy ? t.running : t.run}</button>
            {!picked.length && <span class="muted">{t.none}</span>}
          </div>
        </>
      )}
      <Result id="setup-error" action={action} />
    </section>
  );
}

function SeedOutcome({ result, areas }: { result: SeedResult; areas: Seedable['areas'] }) {
  const t = setupText();
  const entries = Object.entries(result.areas) as [AreaId, SeedResult['areas'][AreaId]][];
  const any = entries.some(([, r]) => r && 'created' in r);
  return (
    <div id="setup-result" class="setup-result" role="status" aria-live="polite">
      <h3>{t.result}</h3>
      {!any && <p>{t.nothing}</p>}
      <ul>
        {entries.map(([area, r]) => r && (
          <li data-area={area} class={'created' in r ? 'ok' : 'skipped'}>
            <strong>{areas.find((a) => a.area === area)?.title[lang.value] ?? area}</strong>: {'created' in r ? t.created(r.created) : t.skipped(r.skipped)}
            {'created' in r && r.items.length > 0 && <span class="muted"> – {r.items.slice(0, 8).join(', ')}{r.items.length > 8 ? ' …' : ''}</span>}
          </li>
        ))}
      </ul>
      {any && <p><a id="setup-next" href="#documents">{t.next}</a></p>}
    </div>
  );
}
