import { texts } from '../app/i18n.ts';
import { statusByCode, textOn } from '../app/catalogue.ts';
import { live, watching } from '../live/board-live.ts';
import { MyClock } from '../ui/my-clock.tsx';
import { moduleOn } from '../app/session.ts';

const text = texts({
  counts: 'Lage', onDuty: 'Im Dienst', units: 'Einheiten', alarms: 'Im Alarm', openCalls: 'Offene Meldungen',
  dispatchers: 'Disponenten', standby: 'Bereitschaft', byStatus: 'Einheiten nach Status', noUnits: 'Keine Einheiten angelegt.',
  noCounts: 'Die Lage sehen Ränge mit Leitstellen- oder Stempeluhr-Rechten.',
}, {
  counts: 'Situation', onDuty: 'On duty', units: 'Units', alarms: 'In alarm', openCalls: 'Open calls',
  dispatchers: 'Dispatchers', standby: 'Stand-by', byStatus: 'Units by status', noUnits: 'No units yet.',
  noCounts: 'The situation is shown to ranks with dispatch or time-clock rights.',
});

function Count({ field, label }: { field: string; label: string }) {
  const value = live.overview.entry(field).value;
  if (value === undefined) return null; // a counter this person may not see
  return (
    <div class={`count count-${field}${field === 'alarms' && value > 0 ? ' hot' : ''}`} data-count={field}>
      <span class="value">{value}</span><span class="label">{label}</span>
    </div>
  );
}

/** Units per status code, in catalogue order, each in its status colour. */
function ByStatus() {
  const t = text();
  const counts = new Map<string, number>();
  for (const u of live.units.values()) counts.set(u.status, (counts.get(u.status) ?? 0) + 1);
  if (!counts.size) return <p class="muted">{t.noUnits}</p>;
  const catalogue = statusByCode.value;
  const codes = [...counts.keys()].sort((a, b) => (catalogue.get(a)?.position ?? 99) - (catalogue.get(b)?.position ?? 99));
  return (
    <ul class="status-bars" aria-label={t.byStatus}>
      {codes.map((code) => {
        const s = catalogue.get(code);
        return (
          <li style={{ background: s?.color ?? '#666', color: textOn(s?.color ?? '#666') }} class={s?.alarm ? 'alarm' : ''}>
            <b>{code}</b> {s?.label ?? ''} <span class="n">{counts.get(code)}</span>
          </li>
        );
      })}
    </ul>
  );
}

export function Overview() {
  const t = text();
  return (
    <div class="grid overview">
      <section class="card" aria-labelledby="counts-title">
        <h2 id="counts-title">{t.counts}</h2>
        <div class="counts">
          <Count field="onDuty" label={t.onDuty} />
          <Count field="units" label={t.units} />
          <Count field="alarms" label={t.alarms} />
          <Count field="openCalls" label={t.openCalls} />
          <Count field="dispatchers" label={t.dispatchers} />
          <Count field="standby" label={t.standby} />
        </div>
        {!live.overview.keys.value.length && <p class="muted">{t.noCounts}</p>}
      </section>
      {moduleOn('timeclock') && <MyClock />}
      {watching.value.includes('units') && (
        <section class="card wide" aria-labelledby="bystatus-title">
          <h2 id="bystatus-title">{t.byStatus}</h2>
          <ByStatus />
        </section>
      )}
    </div>
  );
}
