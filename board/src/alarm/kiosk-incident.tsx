import { effect, signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api } from '../app/api.ts';
import { lang, texts } from '../app/i18n.ts';
import { can, moduleOn } from '../app/session.ts';
import { onNotice, onSnapshot } from '../live/board-live.ts';
import { alarmCallsigns, crewIncident, occupiedUnit } from './feed.ts';
import { Address, SinceAlarm, spokenPlace, words, type Place } from './incident-parts.tsx';
import { Icon } from './icons.tsx';
import { pending } from './tracker.ts';

/** An open sheet as the kiosk shows it: keyword, priority, place, and each unit alarmed for it (callsign -> alarm time). */
export interface KioskIncident { number: number; keyword: string; priority: number; location: Place; alarmed: Map<string, number> }

/** callsign -> the open sheet it was last alarmed for. */
export const incidentOf = signal<ReadonlyMap<string, KioskIncident>>(new Map());

/** Whether this monitor's account may read incident sheets (else it knows only its own unit's incident). */
const readsSheets = () => moduleOn('incidents') && can('dispatch.view');

async function loadSheets(): Promise<Map<string, KioskIncident>> {
  const map = new Map<string, KioskIncident>();
  if (readsSheets()) {
    const { incidents } = await api.incidents.list.query({ state: 'open', limit: 500 });
    for (const s of incidents) {
      const alarmed = new Map(s.units.filter((u) => u.alarmedAt).map((u) => [u.callsign, u.alarmedAt!.getTime()]));
      const inc: KioskIncident = { number: s.number, keyword: s.keyword, priority: s.priority, location: s.location, alarmed };
      for (const [c, at] of alarmed) if ((map.get(c)?.alarmed.get(c) ?? 0) < at) map.set(c, inc);
    }
  }
  const own = occupiedUnit.peek();
  const mine = crewIncident.peek();
  if (own && mine && !map.has(own)) {
    const alarmed = new Map([[own, mine.alarmedAt.getTime()], ...mine.units.map((u) => [u.callsign, u.alarmedAt.getTime()] as const)]);
    map.set(own, { number: mine.number, keyword: mine.keyword, priority: mine.priority, location: mine.location, alarmed });
  }
  return map;
}

/**
 * Keeps `incidentOf` current while the kiosk runs: read again when the alarms change, when a sheet
 * changes (its `einsatzEntries` notice) and after a snapshot; one read at a time, the last one wins.
 */
export function useKioskIncidents(): void {
  useEffect(() => {
    let running = false;
    let again = false;
    let alive = true;
    const read = async () => {
      if (running) return void (again = true);
      running = true;
      try {
        do {
          again = false;
          const next = await loadSheets().catch(() => null);
          if (next && alive) incidentOf.value = next;
        } while (again && alive);
      } finally {
        running = false;
      }
    };
    const stop = effect(() => {
      void alarmCallsigns.value;
      void crewIncident.value;
      void read();
    });
    const offNotice = onNotice('einsatzEntries', () => void read());
    const offSnapshot = onSnapshot(() => void read());
    return () => {
      alive = false;
      stop();
      offNotice();
      offSnapshot();
    };
  }, []);
}

const text = texts({
  speak: (units: string, keyword: string, place: string) => `Einsatz für ${units}, ${keyword}${place ? `, ${place}` : ''}`,
  acked: 'quittiert', units: 'Alarmiert',
}, {
  speak: (units: string, keyword: string, place: string) => `Incident for ${units}, ${keyword}${place ? `, ${place}` : ''}`,
  acked: 'acknowledged', units: 'Alarmed',
});

/** An incident whose alarm time lies this long before the alarm rang here is an earlier one (allows for clock skew). */
const STALE_MS = 30_000;

/** "RTW-1" as a voice should say it: "RTW 1". */
const spokenCallsign = (c: string) => c.replace(/[-_/.]+/g, ' ').trim();

/**
 * Speaks each new alarm once with the browser's speech synthesis, where there is one: "Einsatz für
 * RTW 1, Verkehrsunfall, Hafenstraße", in the board's language. Only alarms that still ring here
 * (unacknowledged, in this monitor's station) are spoken.
 */
export function useAlarmSpeech(groups: () => { incident: KioskIncident; callsigns: string[] }[]): void {
  useEffect(() => {
    const spoken = new Set<string>();
    return effect(() => {
      // One announcement per alarm that rings here (a callsign and when it entered the alarm), and
      // only once the sheet read says it was alarmed about then: never a stale incident.
      const ringing = new Map(pending.value.filter((p) => p.active).map((p) => [p.callsign, p.at]));
      const synth = (window as { speechSynthesis?: SpeechSynthesis }).speechSynthesis;
      const due = (incident: KioskIncident, c: string) => {
        const at = ringing.get(c);
        return at !== undefined && !spoken.has(`${c}:${at}`) && (incident.alarmed.get(c) ?? 0) > at - STALE_MS;
      };
      for (const { incident, callsigns } of groups()) {
        const fresh = callsigns.filter((c) => due(incident, c));
        if (!fresh.length) continue;
        for (const c of fresh) spoken.add(`${c}:${ringing.get(c)}`);
        if (!synth || typeof SpeechSynthesisUtterance === 'undefined') continue;
        const say = new SpeechSynthesisUtterance(text().speak(fresh.map(spokenCallsign).join(', '), incident.keyword, spokenPlace(incident.location)));
        say.lang = lang.peek() === 'en' ? 'en-GB' : 'de-DE';
        synth.speak(say);
      }
    });
  }, []);
}

/** One incident on the wall: keyword and address huge, the units alarmed for it, the time since the alarm, ticking. */
export function IncidentCard({ incident, callsigns, acked }: { incident: KioskIncident; callsigns: string[]; acked: boolean }) {
  const t = text();
  const w = words();
  const first = Math.min(...callsigns.map((c) => incident.alarmed.get(c) ?? Date.now()));
  const others = [...incident.alarmed.keys()].filter((c) => !callsigns.includes(c));
  return (
    <article class={`kiosk-card kiosk-incident prio-${incident.priority}${acked ? ' acked' : ''}`} data-number={incident.number} data-callsigns={callsigns.join(',')}>
      <div class="ki-head"><span>{w.incident(incident.number)}</span><span class="ki-prio">{w.priority[incident.priority] ?? incident.priority}</span></div>
      <div class="ki-keyword">{incident.keyword}</div>
      <Address place={incident.location} />
      <ul class="ki-units" aria-label={t.units}>
        {callsigns.map((c) => <li key={c} data-callsign={c} class="here">{c}</li>)}
        {others.map((c) => <li key={c} data-callsign={c} class="other">{c}</li>)}
      </ul>
      <div class="k-meta"><SinceAlarm at={first} />{acked && <span class="k-acked"><Icon name="check" /> {t.acked}</span>}</div>
    </article>
  );
}
