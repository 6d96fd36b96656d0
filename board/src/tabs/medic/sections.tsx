import { decimal, when } from '../../app/i18n.ts';
import { ms, type Detail, type Injury } from './types.ts';
import { medicText } from './words.ts';
import { timelineText } from './timeline-text.ts';

const order: Record<string, number> = { worsened: 0, open: 1, treated: 2, stable: 3, healed: 4 };

/** Injuries: worst first (worsened and open before treated; then severity), healed last and dimmed. */
export function Injuries({ list }: { list: Injury[] }) {
  const t = medicText();
  if (!list.length) return <p class="muted" id="injuries-none">{t.noInjuries}</p>;
  const sorted = [...list].sort((a, b) => (order[a.state] ?? 9) - (order[b.state] ?? 9) || b.severity - a.severity || ms(a.addedAt) - ms(b.addedAt));
  return (
    <div class="table-wrap">
      <table class="list injuries" id="injuries">
        <thead><tr><th>{t.bodyPartCol}</th><th>{t.kindCol}</th><th>{t.severityCol}</th><th>{t.bleedingCol}</th><th>{t.stateCol}</th></tr></thead>
        <tbody>
          {sorted.map((i) => (
            <tr data-injury={i.injuryId} class={`inj-${i.state}`}>
              <td>{t.bodyPart[i.bodyPart] ?? i.bodyPart}</td>
              <td>{t.kind[i.kind] ?? i.kind}</td>
              <td><span class={`sev sev-${i.severity}`} aria-label={`${t.severityCol} ${t.severity(i.severity)}`}>
                {Array.from({ length: 5 }, (_, k) => <i class={k < i.severity ? 'on' : ''} />)}<span>{t.severity(i.severity)}</span>
              </span></td>
              <td class={i.bleeding ? `bleed bleed-${i.bleeding}` : 'bleed'}>{t.bleeding[i.bleeding] ?? i.bleeding}</td>
              <td><span class={`pill inj-state ${i.state}`}>{t.injuryState[i.state] ?? i.state}</span></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Treatments, newest first: what (and with which item), on which injury, by whom with their tier, the result. */
export function Treatments({ d }: { d: Detail }) {
  const t = medicText();
  if (!d.treatments.length) return <p class="muted" id="treatments-none">{t.noTreatments}</p>;
  const injury = new Map(d.injuries.map((i) => [i.injuryId, i]));
  return (
    <ol class="treatments" id="treatments">
      {[...d.treatments].sort((a, b) => ms(b.at) - ms(a.at)).map((x) => {
        const on = x.injuryId ? injury.get(x.injuryId) : undefined;
        return (
          <li class={`treatment result-${x.result}`} data-event={x.eventId}>
            <time>{when(ms(x.at))}</time>
            <span class="tr-what"><strong>{x.treatment}</strong>{on && <span class="muted"> · {t.bodyPart[on.bodyPart] ?? on.bodyPart}, {t.kind[on.kind] ?? on.kind}</span>}</span>
            <span class={`pill tr-result ${x.result}`}>{t.result[x.result] ?? x.result}</span>
            <span class="tr-by muted">
              {t.by(x.by.name)}{x.by.badge ? ` (${t.badge(x.by.badge)})` : ''} · <span class="tier">{t.tier(x.tier)}</span>
              {x.item && <> · <code class="item">{x.item}</code></>}
            </span>
            {x.note && <p class="tr-note">{x.note}</p>}
          </li>
        );
      })}
    </ol>
  );
}

/** Tox screens: one table per result, the substances by level (highest first). */
export function Labs({ d }: { d: Detail }) {
  const t = medicText();
  if (!d.labs.length) return <p class="muted" id="labs-none">{t.noLabs}</p>;
  const fmt = (n: number) => decimal(n, 3);
  return (
    <div class="labs" id="labs">
      {[...d.labs].sort((a, b) => ms(b.at) - ms(a.at)).map((lab) => (
        <div class="lab" data-event={lab.eventId}>
          <p class="lab-head"><strong>{t.tox}</strong> <span class="muted">{when(ms(lab.at))}</span></p>
          <table class="list tox">
            <thead><tr><th>{t.substance}</th><th class="num">{t.level}</th></tr></thead>
            <tbody>
              {Object.entries(lab.substances).sort((a, b) => b[1] - a[1]).map(([name, level]) => (
                <tr data-substance={name}><td>{name}</td><td class="num">{fmt(level)} <span class="muted">{lab.unit}</span></td></tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}

/** Every non-vital event of the file in the board's language, newest first. */
export function Timeline({ d }: { d: Detail }) {
  const t = medicText();
  if (!d.timeline.length) return <p class="muted">{t.noTimeline}</p>;
  return (
    <ol class="medic-timeline" id="medic-timeline">
      {[...d.timeline].reverse().map((e) => (
        <li class={`mt-${e.type}`} data-event={e.eventId}><time>{when(ms(e.at))}</time><span>{timelineText(e, d.injuries)}</span></li>
      ))}
    </ol>
  );
}
