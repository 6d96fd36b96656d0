import { computed, effect } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { CrewIncident } from '../../../contract/alarm.ts';
import { api } from '../app/api.ts';
import { statuses } from '../app/catalogue.ts';
import { texts } from '../app/i18n.ts';
import { prefs } from '../app/session.ts';
import { Result, useAction } from '../ui/action.tsx';
import { soundAllowed } from './audio.ts';
import { enableSound } from './attention.ts';
import { alarmCallsigns, crewIncident, occupiedUnit } from './feed.ts';
import { Address, addressLines, SinceAlarm, Timeline, UnitList, words } from './incident-parts.tsx';
import { Icon } from './icons.tsx';
import { acknowledgeOne } from './tracker.ts';

const text = texts({
  alarm: 'ALARM', take: (code: string) => `Übernehmen (${code})`, taken: 'Einsatz übernommen.', unlock: 'Ton aktivieren',
  notifyTitle: (unit: string, keyword: string) => `Alarm ${unit}: ${keyword}`,
}, {
  alarm: 'ALARM', take: (code: string) => `Acknowledge (${code})`, taken: 'Incident acknowledged.', unlock: 'Enable sound',
  notifyTitle: (unit: string, keyword: string) => `Alarm ${unit}: ${keyword}`,
});

/** The code of the status that acknowledges an alarm (FMS 3 "Einsatz übernommen" unless the catalogue says otherwise). */
export const ackCode = computed(() => statuses.value.find((s) => s.acknowledges)?.code ?? '3');

/**
 * The own unit's alarm, as long as its crew has not acknowledged it: the unit is in an alarm
 * status and the sheet it was alarmed for says so. Null otherwise (no unit, no alarm, taken over).
 */
export const crewAlarm = computed((): { unit: string; incident: CrewIncident } | null => {
  const unit = occupiedUnit.value;
  const incident = crewIncident.value;
  if (!unit || !incident || incident.acknowledgedAt || !alarmCallsigns.value?.includes(unit)) return null;
  return { unit, incident };
});

/**
 * The crew's alarm card, full width above the tabs (also on a phone): keyword, priority, address,
 * message, the alarmed units, the newest timeline entries, all live as the sheet changes; and
 * "Übernehmen (3)", which sets the acknowledging status of the own unit.
 */
export function CrewAlarmCard() {
  const alarm = crewAlarm.value;
  if (!alarm) return null;
  return <Card unit={alarm.unit} incident={alarm.incident} />;
}

function Card({ unit, incident }: { unit: string; incident: CrewIncident }) {
  const t = text();
  const w = words();
  const action = useAction();
  const code = ackCode.value;
  const take = () => action.run(async () => {
    const r = await api.units.selfStatus.mutate({ callsign: unit, status: code });
    acknowledgeOne(unit);
    return r;
  }, () => t.taken);
  return (
    <section id="crew-alarm" class={`crew-alarm prio-${incident.priority}`} role="alert" aria-labelledby="crew-alarm-keyword" data-number={incident.number}>
      <div class="ca-head">
        <span class="ca-word"><Icon name="beacon" /> {t.alarm} {unit}</span>
        <span class="ca-prio">{w.priority[incident.priority] ?? incident.priority}</span>
        <span class="ca-number">{w.incident(incident.number)}</span>
      </div>
      <h2 id="crew-alarm-keyword" class="ca-keyword">{incident.keyword}</h2>
      <Address place={incident.location} id="crew-alarm-address" />
      {incident.message && <p class="ca-message" id="crew-alarm-message"><b>{w.message}:</b> {incident.message}</p>}
      <div class="ca-meta"><SinceAlarm at={incident.alarmedAt} /></div>
      <UnitList own={unit} incident={incident} />
      <Timeline incident={incident} max={3} />
      <div class="ca-actions">
        <button type="button" id="crew-alarm-take" class="ca-take" disabled={action.busy} onClick={() => void take()}>{t.take(code)}</button>
        {!soundAllowed.value && (prefs.value?.alarmSound ?? true) && (
          <button type="button" id="crew-alarm-unlock" class="ca-unmute" onClick={enableSound}><Icon name="muted" /> {t.unlock}</button>
        )}
      </div>
      <Result id="crew-alarm-result" action={action} />
    </section>
  );
}

/**
 * A system notification with keyword and address when the own unit is alarmed while the page is
 * hidden (another tab, a locked phone); once per alarm. The permission is asked by a click
 * ("Ton aktivieren", the alarm settings). A click on it brings the board to the front.
 */
export function useCrewNotification(): void {
  useEffect(() => {
    const told = new Set<string>();
    return effect(() => {
      const alarm = crewAlarm.value;
      if (!alarm) return;
      const key = `${alarm.incident.number}:${alarm.incident.alarmedAt.getTime()}`;
      if (told.has(key) || document.visibilityState !== 'hidden') return;
      if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
      told.add(key);
      const { incident, unit } = alarm;
      const body = [addressLines(incident.location).join(', '), incident.message].filter(Boolean).join('\n');
      const n = new Notification(text().notifyTitle(unit, incident.keyword), { body, tag: `dt-alarm-${unit}`, requireInteraction: true });
      n.onclick = () => {
        window.focus();
        n.close();
      };
    });
  }, []);
}
