import { effect } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { clockTime, texts } from '../app/i18n.ts';
import { textOn } from '../app/catalogue.ts';
import { access, can, guild, prefs } from '../app/session.ts';
import { soundAllowed } from './audio.ts';
import { enableSound, useAlarmNotifications, useAlarmTone, useTitleBlink, useUnlockOnAnyInput } from './attention.ts';
import { alarmCallsigns, feedState, startAlarmFeed, stopAlarmFeed } from './feed.ts';
import { AlarmPrefs, toneNames } from './prefs.tsx';
import { CrewAlarmCard, crewAlarm, useCrewNotification } from './crew-card.tsx';
import { outageText } from './outage.tsx';
import { alarmInfo, inScope, myUnit, ownUnitVisible } from './scope.ts';
import { acknowledge, pending, trackFor, updateAlarms, type PendingAlarm } from './tracker.ts';
import './alarm.css';
import { Icon } from './icons.tsx';

const text = texts({
  alarm: 'ALARM', ack: 'Quittieren', ackLabel: (c: string) => `Alarm ${c} quittieren`, since: (at: string) => `seit ${at} Uhr`, ended: 'Alarm beendet',
  unlock: 'Ton aktivieren', unlockHint: 'Damit du Alarme hörst, einmal Ton aktivieren.', muted: 'Ton blockiert',
  armed: 'Alarm bereit', soundOff: 'Alarmton aus', all: 'alle Einheiten', own: 'nur meine Einheit', ownNone: 'nur meine Einheit (keine besetzt)',
  ownHidden: 'alle Einheiten (deine Einheit ist für deinen Rang nicht sichtbar)', settings: 'Alarm-Einstellungen',
  feed: { connecting: 'Alarm verbindet …', cut: 'Alarmierung gestört — keine Verbindung', degraded: 'Alarm: Server ohne Datenbank – Alarme evtl. verspätet', forbidden: 'Alarm nicht verfügbar: deinem Rang fehlt die Stempeluhr-Berechtigung.', signedOut: 'Alarm beendet: Anmeldung abgelaufen.', failed: 'Alarm-Verbindung beendet – bitte Seite neu laden.' },
  notifyBody: (status: string) => `Status ${status}`, notifyPlain: 'Die Einheit ist in einem Alarmstatus.', notifyTitle: (c: string) => `🚨 Alarm ${c}`,
}, {
  alarm: 'ALARM', ack: 'Acknowledge', ackLabel: (c: string) => `Acknowledge alarm ${c}`, since: (at: string) => `since ${at}`, ended: 'alarm ended',
  unlock: 'Enable sound', unlockHint: 'To hear alarms, enable sound once.', muted: 'Sound blocked',
  armed: 'Alarm armed', soundOff: 'Alarm sound off', all: 'all units', own: 'my unit only', ownNone: 'my unit only (none occupied)',
  ownHidden: 'all units (your unit is not visible to your rank)', settings: 'Alarm settings',
  feed: { connecting: 'Alarm connecting …', cut: 'Alarms disrupted — no connection', degraded: 'Alarm: server without database – alarms may be late', forbidden: 'Alarm unavailable: your rank lacks the time-clock right.', signedOut: 'Alarm ended: sign-in expired.', failed: 'Alarm connection ended – please reload the page.' },
  notifyBody: (status: string) => `Status ${status}`, notifyPlain: 'The unit is in an alarm status.', notifyTitle: (c: string) => `🚨 Alarm ${c}`,
});

const soundOn = () => prefs.value?.alarmSound ?? true;

/**
 * The alarm on the board (above the tabs): a slim strip that says what rings (and asks once for
 * the click browsers need before they play sound), the banner of unacknowledged alarms with
 * "Quittieren", the tone, the blinking tab title and notifications while the tab is hidden. For
 * people whose rank may use the time clock (`me.alarm.watch` needs timeclock.own.use).
 */
export function AlarmBanner() {
  const g = guild.value;
  if (!g || !access.value || !can('timeclock.own.use')) return null;
  return <AlarmArea key={g.guildId} guildId={g.guildId} />;
}

function AlarmArea({ guildId }: { guildId: string }) {
  useEffect(() => {
    trackFor(guildId);
    startAlarmFeed(guildId);
    const track = effect(() => {
      const alarms = alarmCallsigns.value;
      if (!alarms) return;
      const relevant = inScope(alarms, prefs.value?.alarmScope ?? 'all');
      if (relevant) updateAlarms(relevant);
    });
    return () => {
      track();
      stopAlarmFeed();
      trackFor('');
    };
  }, [guildId]);
  useAlarmTone(() => ({ on: soundOn(), tone: prefs.value?.alarmTone ?? 'gong', volume: prefs.value?.alarmVolume ?? 80 }));
  useTitleBlink();
  useAlarmNotifications((c) => {
    const info = alarmInfo(c);
    const t = text();
    return info.code ? t.notifyBody(info.status ? `${info.code} ${info.status.label}` : info.code) : t.notifyPlain;
  }, (c) => text().notifyTitle(c));
  useUnlockOnAnyInput();
  useCrewNotification();
  // The own unit's alarm shows as the crew's card; the banner keeps the others.
  const carded = crewAlarm.value?.unit;
  const others = pending.value.filter((p) => p.callsign !== carded);
  return (
    <div id="alarm-area">
      <CrewAlarmCard />
      {others.length > 0 && <PendingBanner list={others} />}
      <AlarmStrip />
    </div>
  );
}

function PendingBanner({ list }: { list: readonly PendingAlarm[] }) {
  const t = text();
  const names = list.map((p) => p.callsign).join(', ');
  return (
    <section id="alarm-banner" class="alarm-banner" role="alert" aria-label={`${t.alarm} ${names}`}>
      <span class="alarm-word" aria-hidden="true"><Icon name="beacon" /> {t.alarm}</span>
      <ul class="alarm-units">{list.map((p) => <PendingUnit key={p.callsign} alarm={p} />)}</ul>
      <span class="alarm-actions">
        {!soundAllowed.value && soundOn() && (
          <button type="button" id="alarm-unlock-banner" class="alarm-unmute" onClick={enableSound}><Icon name="muted" /> {t.unlock}</button>
        )}
        <button type="button" id="alarm-ack" class="alarm-ack" aria-label={t.ackLabel(names)} onClick={acknowledge}>{t.ack}</button>
      </span>
    </section>
  );
}

function PendingUnit({ alarm }: { alarm: PendingAlarm }) {
  const t = text();
  const info = alarmInfo(alarm.callsign);
  const color = info.status?.color ?? '#ffffff';
  return (
    <li class={alarm.active ? 'alarm-unit' : 'alarm-unit ended'} data-callsign={alarm.callsign}>
      <b class="callsign">{alarm.callsign}</b>
      {info.code && (
        <span class="status" style={{ background: color, color: textOn(color) }}>
          {info.code}{info.status ? ` ${info.status.label}` : ''}
        </span>
      )}
      <span class="meta">
        {info.label && `${info.label} · `}
        <span class="when">{alarm.active ? t.since(clockTime(info.since ?? alarm.at)) : t.ended}</span>
      </span>
    </li>
  );
}

/** What rings here, in one line; the sound unlock while it is needed; the settings button. */
function AlarmStrip() {
  const t = text();
  const [open, setOpen] = useState(false);
  const state = feedState.value;
  const p = prefs.value;
  // While the banner shows, its own button asks for sound.
  const needsUnlock = !soundAllowed.value && soundOn() && !pending.value.length;
  let summary: string;
  if (state === 'live') {
    const scope = p?.alarmScope !== 'own' ? t.all : !ownUnitVisible() ? t.ownHidden : null;
    summary = `${t.armed} · ${scope ?? ''}`;
  } else summary = outageText() ?? t.feed[state];
  return (
    <div id="alarm-strip" class={`alarm-strip feed-${state}${needsUnlock ? ' needs-unlock' : ''}`}>
      <span id="alarm-summary" class="summary" role="status">
        <span class="dot" aria-hidden="true" />
        <span>
          {summary}{state === 'live' && p?.alarmScope === 'own' && ownUnitVisible() && <OwnUnit />}
          {state === 'live' && ` · ${soundOn() ? `${toneNames()[p?.alarmTone ?? 'gong']} ${p?.alarmVolume ?? 80} %` : t.soundOff}`}
        </span>
      </span>
      {needsUnlock && (
        <span class="unlock">
          <span class="hint">{t.unlockHint}</span>
          <button type="button" id="alarm-unlock" onClick={enableSound}><Icon name="sound" /> {t.unlock}</button>
        </span>
      )}
      <span class="prefs-anchor">
        <button type="button" id="alarm-prefs-button" class="bell" aria-haspopup="dialog" aria-expanded={open} aria-controls="alarm-prefs"
          title={t.settings} aria-label={t.settings} onClick={() => setOpen(!open)}><Icon name="bell" /><span class="bell-label">{t.settings}</span></button>
        {open && <AlarmPrefs onClose={() => setOpen(false)} />}
      </span>
    </div>
  );
}

/** "nur meine Einheit (RTW-1)": its own component, as it reads every unit's members. */
function OwnUnit() {
  const t = text();
  const unit = myUnit();
  return <>{unit ? `${t.own} (${unit})` : t.ownNone}</>;
}
