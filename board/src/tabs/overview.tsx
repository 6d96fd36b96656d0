import { texts } from '../app/i18n.ts';
import { statusByCode, textOn } from '../app/catalogue.ts';
import { live, watching } from '../live/board-live.ts';
import { MyClock } from '../ui/my-clock.tsx';
import { moduleOn } from '../app/session.ts';
import { now } from '../app/clock.ts';
import { duration } from '../app/i18n.ts';
import { showTab } from '../app/shell.tsx';
import type { CallEntry } from '../live/entries.ts';

const text = texts({
  counts: 'Lage', onDuty: 'Im Dienst', units: 'Einheiten', alarms: 'Im Alarm', openCalls: 'Offene Meldungen',
  dispatchers: 'Disponenten', standby: 'Bereitschaft', byStatus: 'Einheiten nach Status', noUnits: 'Keine Einheiten angelegt.',
  noCounts: 'Die Lage sehen Ränge mit Leitstellen- oder Stempeluhr-Rechten.',
  inAlarm: 'Einheiten im Alarm', noAlarm: 'Keine Einheit im Alarm.', latestCalls: 'Neueste Meldungen', noCalls: 'Keine offenen Meldungen.',
  allCalls: 'Alle Meldungen', panic: 'PANIK', ago: (d: string) => `vor ${d}`,
}, {
  counts: 'Situation', onDuty: 'On duty', units: 'Units', alarms: 'In alarm', openCalls: 'Open calls',
  dispatchers: 'Dispatchers', standby: 'Stand-by', byStatus: 'Units by status', noUnits: 'No units yet.',
  noCounts: 'The situation is shown to ranks with dispatch or time-clock rights.',
  inAlarm: 'Units in alarm', noAlarm: 'No unit in alarm.', latestCalls: 'Latest calls', noCalls: 'No open calls.',
  allCalls: 'All calls', panic: 'PANIC', ago: (d: string) => `${d} ago`,
});

/** The units in an alarm status, longest first. */
function Alarms() {
  const t = text();
  const list = live.alarm.values().sort((a, b) => a.since - b.since);
  if (!list.length) return <p class="muted">{t.noAlarm}</p>;
  const catalogue = statusByCode.value;
  return (
    <ul class="mini-list" id="overview-alarms">
      {list.map((a) => (
        <li class="alarm-row"><b>{a.callsign}</b> {catalogue.get(a.status)?.label ?? a.status} <span class="muted">{t.ago(duration(now.value - a.since))}</span></li>
      ))}
    </ul>
  );
}

const panicFirst = (a: CallEntry, b: CallEntry) =>
  Number(b.kind === 'panik') - Number(a.kind === 'panik') || b.createdAt - a.createdAt;

/** The five newest open calls, panic calls first. */
function LatestCalls() {
  const t = text();
  const list = live.calls.values().sort(panicFirst).slice(0, 5);
  return (
    <>
      {!list.length ? <p class="muted">{t.noCalls}</p> : (
        <ul class="mini-list" id="overview-calls">
          {list.map((c) => (
            <li class={c.kind === 'panik' ? 'panic' : ''}>
              {c.kind === 'panik' && <b>{t.panic} </b>}<b>{c.title}</b> <span class="muted">{t.ago(duration(now.value - c.createdAt))}</span>
            </li>
          ))}
        </ul>
      )}
      <button type="button" class="small" onClick={() => showTab('calls')}>{t.allCalls}</button>
    </>
  );
}

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
      {watching.value.includes('alarm') && (
        <section class="card" aria-labelledby="alarms-title">
          <h2 id="alarms-title">{t.inAlarm}</h2>
          <Alarms />
        </section>
      )}
      {watching.value.includes('calls') && (
        <section class="card" aria-labelledby="latest-calls-title">
          <h2 id="latest-calls-title">{t.latestCalls}</h2>
          <LatestCalls />
        </section>
      )}
      {watching.value.includes('units') && (
        <section class="card wide" aria-labelledby="bystatus-title">
          <h2 id="bystatus-title">{t.byStatus}</h2>
          <ByStatus />
        </section>
      )}
    </div>
  );
}
