import type { CrewIncident } from '../../../contract/alarm.ts';
import { now } from '../app/clock.ts';
import { clockTime, duration, texts } from '../app/i18n.ts';
import { Icon } from './icons.tsx';

/** Where an incident is, as sheets carry it: text, or `{ street, postal, text, x, y }`. */
export type Place = CrewIncident['location'];

export const words = texts({
  priority: { 1: 'Priorität 1 – hoch', 2: 'Priorität 2 – normal', 3: 'Priorität 3 – niedrig' } as Record<number, string>,
  incident: (n: number) => `Einsatz ${n}`, units: 'Alarmierte Einheiten', timeline: 'Verlauf', message: 'Meldung',
  acked: 'übernommen', waiting: 'noch nicht übernommen', noPlace: 'Kein Einsatzort angegeben',
  since: (d: string) => `Alarm vor ${d}`, at: (time: string) => `um ${time} Uhr`,
}, {
  priority: { 1: 'Priority 1 – high', 2: 'Priority 2 – normal', 3: 'Priority 3 – low' } as Record<number, string>,
  incident: (n: number) => `Incident ${n}`, units: 'Alarmed units', timeline: 'Timeline', message: 'Report',
  acked: 'acknowledged', waiting: 'not acknowledged yet', noPlace: 'No location given',
  since: (d: string) => `Alarm ${d} ago`, at: (time: string) => `at ${time}`,
});

/** The address as lines: street first, then postal code and place text ([] when there is none). */
export function addressLines(p: Place): string[] {
  if (!p) return [];
  if (typeof p === 'string') return [p];
  const second = [p.postal, p.text].filter(Boolean).join(' ');
  return [p.street, second].filter((x): x is string => !!x);
}

/** The shortest spoken form of a place: the street, else the text. */
export function spokenPlace(p: Place): string {
  if (!p) return '';
  if (typeof p === 'string') return p;
  return p.street || p.text || p.postal || '';
}

/** The address, large; "Kein Einsatzort angegeben" when the sheet has none. */
export function Address({ place, id }: { place: Place; id?: string }) {
  const lines = addressLines(place);
  if (!lines.length) return <p class="inc-address none" id={id}>{words().noPlace}</p>;
  return (
    <p class="inc-address" id={id}>
      <Icon name="pin" /> <span>{lines.map((l, i) => <span class={i === 0 ? 'first' : 'rest'} key={i}>{l}</span>)}</span>
    </p>
  );
}

/** "Alarm vor 12 s · um 14:02 Uhr", ticking. */
export function SinceAlarm({ at }: { at: Date | number }) {
  const ms = typeof at === 'number' ? at : at.getTime();
  void now.value;
  const w = words();
  return <span class="inc-since">{w.since(duration(Date.now() - ms))} · {w.at(clockTime(ms))}</span>;
}

/** Every unit alarmed for the incident (the own one first), each with whether it has acknowledged. */
export function UnitList({ own, incident }: { own: string | null; incident: CrewIncident }) {
  const w = words();
  const list = [
    ...(own ? [{ callsign: own, label: '', acknowledgedAt: incident.acknowledgedAt, mine: true }] : []),
    ...incident.units.map((u) => ({ ...u, mine: false })),
  ];
  return (
    <ul class="inc-units" aria-label={w.units}>
      {list.map((u) => (
        <li key={u.callsign} class={u.mine ? 'mine' : ''} data-callsign={u.callsign}>
          <b>{u.callsign}</b>{u.label && <span class="label"> {u.label}</span>}
          <span class={u.acknowledgedAt ? 'ack yes' : 'ack no'}>{u.acknowledgedAt ? <><Icon name="check" /> {w.acked}</> : w.waiting}</span>
        </li>
      ))}
    </ul>
  );
}

/** The newest `max` timeline entries, newest first. */
export function Timeline({ incident, max }: { incident: CrewIncident; max: number }) {
  const list = incident.entries.slice(-max).reverse();
  if (!list.length) return null;
  return (
    <ol class="inc-timeline" aria-label={words().timeline}>
      {list.map((e, i) => (
        <li key={`${e.at.getTime()}-${i}`} data-kind={e.kind}>
          <time>{clockTime(e.at.getTime())}</time> <span>{e.text}</span>{e.by && <span class="by"> – {e.by}</span>}
        </li>
      ))}
    </ol>
  );
}
