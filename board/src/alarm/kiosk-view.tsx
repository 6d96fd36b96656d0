import { memo } from 'preact/compat';
import { now } from '../app/clock.ts';
import { textOn } from '../app/catalogue.ts';
import { clockTime, duration, longDate, texts } from '../app/i18n.ts';
import { branding, guild } from '../app/session.ts';
import { soundAllowed } from './audio.ts';
import { enableSound } from './attention.ts';
import { alarmInfo } from './scope.ts';
import { fullscreen, toggleFullscreen, wakeState } from './screen.ts';
import { acknowledge, pending } from './tracker.ts';
import { Icon } from './icons.tsx';
import { IncidentCard, incidentOf, type KioskIncident } from './kiosk-incident.tsx';
import { outageText } from './outage.tsx';

const text = texts({
  quiet: 'Keine Alarme', watching: 'Überwacht', allUnits: 'alle Einheiten', alarm: 'ALARM', ack: 'Quittieren', acked: 'quittiert',
  since: (at: string) => `seit ${at} Uhr`, fullscreen: 'Vollbild', leaveFullscreen: 'Vollbild beenden',
  unlock: 'Tippen, um den Alarmton zu aktivieren', unlockHint: 'Der Browser spielt Ton erst nach einem Klick auf die Seite.',
  sound: { on: 'Ton an', off: 'Ton aus' },
  wake: { on: 'Bildschirm bleibt an', off: 'Bildschirm kann ausgehen', unsupported: 'Bildschirm kann ausgehen (nicht unterstützt)', failed: 'Bildschirm kann ausgehen (verweigert – tippen)' },
  connection: { connecting: 'Verbinde …', live: 'Alarm bereit', reconnecting: 'Alarmierung gestört — keine Verbindung', degraded: 'Alarmierung gestört — Server ohne Datenbank', ended: 'Verbindung beendet – bitte neu laden' },
  station: 'Wache', allStations: 'Alle Wachen',
}, {
  quiet: 'No alarms', watching: 'Watching', allUnits: 'all units', alarm: 'ALARM', ack: 'Acknowledge', acked: 'acknowledged',
  since: (at: string) => `since ${at}`, fullscreen: 'Full screen', leaveFullscreen: 'Leave full screen',
  unlock: 'Tap to enable the alarm sound', unlockHint: 'The browser plays sound only after a click on the page.',
  sound: { on: 'Sound on', off: 'Sound off' },
  wake: { on: 'Screen stays on', off: 'Screen may turn off', unsupported: 'Screen may turn off (not supported)', failed: 'Screen may turn off (refused – tap)' },
  connection: { connecting: 'Connecting …', live: 'Alarm armed', reconnecting: 'Alarms disrupted — no connection', degraded: 'Alarms disrupted — server without database', ended: 'Connection ended – please reload' },
  station: 'Station', allStations: 'All stations',
});

export type KioskConnection = 'connecting' | 'live' | 'reconnecting' | 'degraded' | 'ended';

/** The bar at the top: station, what is watched, connection, screen, sound, full screen. */
export interface StationChoice { current: string | null; stations: string[]; choose: (station: string | null) => void }

export function KioskTop({ units, conn, alarm, station }: { units: readonly string[] | null; conn: KioskConnection; alarm: boolean; station: StationChoice }) {
  const t = text();
  const wake = wakeState.value;
  const name = guild.value?.name ?? '';
  const b = branding.value;
  return (
    <header class="kiosk-top">
      {!alarm && b?.iconUrl && <img class="kiosk-icon" alt="" src={b.iconUrl} />}
      <span class="kiosk-title">
        {alarm ? <b class="kiosk-alarm-word"><Icon name="beacon" /> {t.alarm}</b> : <b id="kiosk-guild">{name}</b>}
        <span class="kiosk-watch">{alarm && `${name} · `}<span id="kiosk-units">{t.watching}: {units ? units.join(', ') : station.current ?? t.allUnits}</span></span>
      </span>
      {!units && station.stations.length > 1 && (
        <label class="kiosk-station">{t.station}
          <select id="kiosk-station" value={station.current ?? ''} onChange={(e) => station.choose((e.target as HTMLSelectElement).value || null)}>
            <option value="">{t.allStations}</option>
            {station.stations.map((s) => <option value={s}>{s}</option>)}
          </select>
        </label>
      )}
      {alarm && <SmallClock />}
      <span class="kiosk-flags">
        <span id="kiosk-connection" class={`kflag conn-${conn}`} role="status"><span class="dot" aria-hidden="true" />{(conn === 'reconnecting' || conn === 'degraded') && outageText() || t.connection[conn]}</span>
        <span id="kiosk-wake" class={`kflag wake-${wake}`} data-wake={wake}><Icon name={wake === 'on' ? 'sun' : 'moon'} /> {t.wake[wake]}</span>
        <span id="kiosk-sound" class="kflag"><Icon name={soundAllowed.value ? 'sound' : 'muted'} /> {t.sound[soundAllowed.value ? 'on' : 'off']}</span>
        <button type="button" id="kiosk-fullscreen" class="kbutton" onClick={toggleFullscreen}>
          <Icon name={fullscreen.value ? 'shrink' : 'expand'} /> {fullscreen.value ? t.leaveFullscreen : t.fullscreen}
        </button>
      </span>
    </header>
  );
}

function SmallClock() {
  return <span class="kiosk-small-clock">{clockTime(now.value)}</span>;
}

/**
 * Nothing in alarm: the time, large, and a calm "Keine Alarme" — unless alarms cannot reach this
 * monitor (`down`): then it says so, large, instead of claiming calm.
 */
export function QuietView({ down }: { down: boolean }) {
  const t = text();
  const hm = clockTime(now.value);
  const s = String(new Date(now.value).getSeconds()).padStart(2, '0');
  return (
    <main class="kiosk-quiet-view" id="kiosk-quiet">
      <div class="kiosk-clock" id="kiosk-clock" aria-label={hm}>{hm}<span class="sec">:{s}</span></div>
      <div class="kiosk-date">{longDate(now.value)}</div>
      {down
        ? <p class="kiosk-calm kiosk-down" id="kiosk-down"><Icon name="warn" /> {outageText() ?? t.connection.ended}</p>
        : <p class="kiosk-calm"><Icon name="check" class="ok" /> {t.quiet}</p>}
    </main>
  );
}

/** The units in alarm grouped by the incident they were alarmed for; units without a known incident stand alone. */
export function alarmGroups(list: readonly string[]): { incident: KioskIncident; callsigns: string[] }[] {
  const groups = new Map<number, { incident: KioskIncident; callsigns: string[] }>();
  const map = incidentOf.value;
  for (const c of list) {
    const inc = map.get(c);
    if (!inc) continue;
    const g = groups.get(inc.number) ?? { incident: inc, callsigns: [] };
    g.callsigns.push(c);
    groups.set(inc.number, g);
  }
  return [...groups.values()];
}

/**
 * Alarms on the wall: one card per incident (keyword and address huge, its units, the time since
 * the alarm), and units in alarm without a known incident (FMS 0, or a monitor that may not read
 * sheets) in huge letters with their status. Unacknowledged ones flash; "Quittieren" stops the tone.
 */
export function AlarmWall({ list }: { list: readonly string[] }) {
  const t = text();
  const open = new Set(pending.value.filter((p) => p.active).map((p) => p.callsign));
  const groups = alarmGroups(list);
  const grouped = new Set(groups.flatMap((g) => g.callsigns));
  const single = list.filter((c) => !grouped.has(c));
  const said = [...groups.map((g) => `${g.callsigns.join(', ')}: ${g.incident.keyword}`), ...single];
  return (
    <main class={`kiosk-wall n-${Math.min(groups.length + single.length, 4)}`} id="kiosk-alarms">
      <p class="sr-only" role="alert">{t.alarm} {said.join('; ')}</p>
      <div class="kiosk-cards">
        {groups.map((g) => <IncidentCard key={g.incident.number} incident={g.incident} callsigns={g.callsigns} acked={!g.callsigns.some((c) => open.has(c))} />)}
        {single.map((c) => <AlarmCard key={c} callsign={c} acked={!open.has(c)} />)}
      </div>
      {open.size > 0 && <button type="button" id="kiosk-ack" class="kiosk-ack" onClick={acknowledge}>{t.ack}</button>}
    </main>
  );
}

const AlarmCard = memo(function AlarmCard({ callsign, acked }: { callsign: string; acked: boolean }) {
  const t = text();
  const info = alarmInfo(callsign);
  const color = info.status?.color ?? '#d32f2f';
  return (
    <article class={acked ? 'kiosk-card acked' : 'kiosk-card'} data-callsign={callsign} style={{ '--status': color }}>
      <div class="k-callsign">{callsign}</div>
      {info.code && (
        <div class="k-status" style={{ background: color, color: textOn(color) }}>
          <span class="k-code">{info.code}</span>{info.status && <span class="k-label">{info.status.label}</span>}
        </div>
      )}
      <div class="k-meta">
        {(info.label || info.orgUnit) && <span>{[info.label, info.orgUnit].filter(Boolean).join(' · ')}</span>}
        {info.since !== null && <Since at={info.since} />}
        {acked && <span class="k-acked"><Icon name="check" /> {t.acked}</span>}
      </div>
    </article>
  );
});

function Since({ at }: { at: number }) {
  const t = text();
  return <span class="k-since">{t.since(clockTime(at))} · {duration(now.value - at)}</span>;
}

/** Until the browser allows sound: one large button (any click on the page does it too). */
export function UnlockBar() {
  const t = text();
  if (soundAllowed.value) return null;
  return (
    <button type="button" id="kiosk-unlock" class="kiosk-unlock" onClick={enableSound}>
      <span class="big"><Icon name="sound" /> {t.unlock}</span><span class="small">{t.unlockHint}</span>
    </button>
  );
}
