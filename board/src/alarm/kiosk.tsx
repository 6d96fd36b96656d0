import { effect, signal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { texts } from '../app/i18n.ts';
import { access, can, guild, guilds, openGuild, phase, prefs } from '../app/session.ts';
import { connection, watching } from '../live/board-live.ts';
import type { Tone } from './audio.ts';
import { useAlarmTone, useUnlockOnAnyInput } from './attention.ts';
import { alarmCallsigns, feedState, startAlarmFeed, stopAlarmFeed } from './feed.ts';
import { AlarmWall, alarmGroups, KioskTop, QuietView, UnlockBar, type KioskConnection } from './kiosk-view.tsx';
import { useAlarmSpeech, useKioskIncidents } from './kiosk-incident.tsx';
import { api } from '../app/api.ts';
import { kioskUnits } from './scope.ts';
import { useWakeLock } from './screen.ts';
import { dropEnded, trackFor, updateAlarms } from './tracker.ts';
import './kiosk.css';
import { Icon } from './icons.tsx';

const text = texts({
  title: 'Alarmmonitor', loading: 'Lädt …', reload: 'Neu laden',
  signedOut: 'Dieser Monitor ist nicht angemeldet.',
  signIn: 'Öffne auf diesem Gerät einen Login-Link (Discord: Button „Login“ am Stempeluhr-Panel, oder vom Server-Betreiber: npx dispatch-terminal login-link …). Danach diese Seite neu laden.',
  choose: 'Welche Wache zeigt dieser Monitor?', noGuild: 'Dieses Konto ist in keiner Wache Mitglied.', unreachable: 'Der Server ist nicht erreichbar. Neuer Versuch beim Neuladen.',
  forbidden: 'Dieses Konto darf keine Alarme empfangen: seinem Rang fehlt die Stempeluhr-Berechtigung. Melde den Monitor mit einem anderen Konto an.',
}, {
  title: 'Alarm monitor', loading: 'Loading …', reload: 'Reload',
  signedOut: 'This monitor is not signed in.',
  signIn: 'Open a login link on this device (Discord: the “Login” button on the time-clock panel, or from whoever runs the server: npx dispatch-terminal login-link …). Then reload this page.',
  choose: 'Which station does this monitor show?', noGuild: 'This account is not a member of any station.', unreachable: 'The server cannot be reached. Reloading tries again.',
  forbidden: 'This account may not receive alarms: its rank lacks the time-clock right. Sign the monitor in with another account.',
});

const tones: Tone[] = ['gong', 'siren', 'beep'];

/**
 * `/dispatch/alarm`: the station monitor. Every unit's alarm rings here (or only the station's,
 * `?units=RTW-1,RTW-2`), whatever the signed-in person's own scope is; tone and volume are the
 * person's preferences unless `?tone=siren&volume=100` say otherwise, and sound is always on.
 */
export function Kiosk() {
  const t = text();
  useEffect(() => {
    document.body.classList.add('kiosk-body');
    return () => document.body.classList.remove('kiosk-body');
  }, []);
  const p = phase.value;
  const g = guild.value;
  if (p === 'board' && g && access.value) {
    if (!can('timeclock.own.use')) return <Message title={g.name} body={t.forbidden} />;
    return <KioskBoard key={g.guildId} guildId={g.guildId} />;
  }
  if (p === 'signedOut') return <Message title={t.signedOut} body={t.signIn} reload />;
  if (p === 'noGuild') return <Message title={t.title} body={t.noGuild} />;
  if (p === 'unreachable') return <Message title={t.title} body={t.unreachable} reload />;
  if (p === 'choose') {
    return (
      <Message title={t.choose}>
        <ul class="kiosk-guilds">{guilds.value.map((x) => <li><button type="button" class="kbutton" onClick={() => openGuild(x.guildId)}>{x.name}</button></li>)}</ul>
      </Message>
    );
  }
  return <Message title={t.loading} />;
}

function Message({ title, body, reload, children }: { title: string; body?: string; reload?: boolean; children?: ComponentChildren }) {
  return (
    <main class="kiosk-message" id="kiosk-message">
      <h1><Icon name="beacon" /> {title}</h1>
      {body && <p>{body}</p>}
      {children}
      {reload && <button type="button" class="kbutton" onClick={() => location.reload()}>{text().reload}</button>}
    </main>
  );
}

/** `?station=Rettungswache Mitte`: the organisation unit this monitor shows (null: every station). */
const station = signal<string | null>(new URLSearchParams(location.search).get('station')?.trim() || null);
/** callsign -> its organisation unit, from GET /me/units (what a crew chooses from; no names). */
const stationOf = signal<ReadonlyMap<string, string>>(new Map());

function chooseStation(next: string | null): void {
  station.value = next;
  const url = new URL(location.href);
  if (next) url.searchParams.set('station', next);
  else url.searchParams.delete('station');
  history.replaceState(null, '', url);
}

async function loadStations(): Promise<void> {
  const { units } = await api.units.crewList.query().catch(() => ({ units: [] as { callsign: string; orgUnit: string }[] }));
  stationOf.value = new Map(units.map((u) => [u.callsign, u.orgUnit]));
}

/** Which of the alarmed callsigns this monitor shows: its `?units=`, else its station's units, else all. */
function shownOf(alarms: readonly string[], units: readonly string[] | null): string[] {
  if (units) return alarms.filter((c) => units.includes(c.toUpperCase()));
  const s = station.value?.toLocaleLowerCase();
  if (!s) return [...alarms];
  const map = stationOf.value;
  return alarms.filter((c) => map.get(c)?.toLocaleLowerCase() === s);
}

function KioskBoard({ guildId }: { guildId: string }) {
  const units = kioskUnits();
  const query = new URLSearchParams(location.search);
  const toneParam = query.get('tone') as Tone | null;
  const volumeParam = Number(query.get('volume') ?? NaN);
  useEffect(() => {
    startAlarmFeed(guildId);
    void loadStations();
    const track = effect(() => {
      const alarms = alarmCallsigns.value;
      if (!alarms) return;
      // A unit this monitor has not heard of (added since): learn its station first.
      if (station.value && alarms.some((c) => !stationOf.peek().has(c))) void loadStations();
      // Another station chosen: what rang for the last one is forgotten.
      trackFor(`${guildId}:kiosk:${units?.join(',') ?? station.value ?? '*'}`);
      updateAlarms(shownOf(alarms, units));
      dropEnded();
    });
    document.title = `${text().title} · ${guild.peek()?.name ?? ''}`;
    return () => {
      track();
      stopAlarmFeed();
      trackFor('');
    };
  }, [guildId]);
  useKioskIncidents();
  useAlarmSpeech(() => alarmGroups(shownOf(alarmCallsigns.value ?? [], units)));
  useAlarmTone(() => ({
    on: true,
    tone: toneParam && tones.includes(toneParam) ? toneParam : prefs.value?.alarmTone ?? 'gong',
    volume: Number.isFinite(volumeParam) ? Math.max(0, Math.min(100, volumeParam)) : prefs.value?.alarmVolume ?? 80,
  }));
  useUnlockOnAnyInput();
  useWakeLock();

  const shown = shownOf(alarmCallsigns.value ?? [], units);
  const alarm = shown.length > 0;
  const stations = [...new Set(stationOf.value.values())].filter(Boolean).sort();
  const conn = kioskConnection();
  return (
    <div class={alarm ? 'kiosk kiosk-alarm' : 'kiosk kiosk-quiet'} id="kiosk">
      <KioskTop units={units} conn={conn} alarm={alarm} station={{ current: station.value, stations, choose: chooseStation }} />
      {alarm ? <AlarmWall list={shown} /> : <QuietView down={conn !== 'live' && conn !== 'connecting'} />}
      <UnlockBar />
    </div>
  );
}

/** The state of both sockets in one word: the alarm's own, and the board's (which also notices a cut). */
function kioskConnection(): KioskConnection {
  const feed = feedState.value;
  if (feed === 'forbidden' || feed === 'signedOut' || feed === 'failed') return 'ended';
  if (feed === 'degraded') return 'degraded';
  if (feed === 'cut') return 'reconnecting';
  if (watching.value.length && connection.value !== 'live') return connection.value;
  return feed === 'live' ? 'live' : 'connecting';
}
