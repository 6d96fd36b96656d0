import { useEffect, useRef, useState } from 'preact/hooks';
import { texts } from '../app/i18n.ts';
import { guild, prefs, savePrefs } from '../app/session.ts';
import type { Prefs } from '../app/types.ts';
import { Result, useAction } from '../ui/action.tsx';
import { previewTone, unlockAudio, type Tone } from './audio.ts';
import { askNotifications, notifyPermission } from './attention.ts';
import { ownUnitVisible } from './scope.ts';
import { Icon } from './icons.tsx';

export const toneNames = texts<Record<Tone, string>>({ gong: 'Gong', siren: 'Sirene', beep: 'Piepton' }, { gong: 'Gong', siren: 'Siren', beep: 'Beep' });

const text = texts({
  title: 'Alarm-Einstellungen', close: 'Schließen', which: 'Welche Alarme klingeln', own: 'Nur meine Einheit', all: 'Alle Einheiten',
  ownHint: 'Klingelt nur, wenn die Einheit, die du besetzt, in einen Alarmstatus geht.',
  ownHidden: 'Deine Einheit ist für deinen Rang nicht sichtbar – es klingeln alle Alarme.',
  tone: 'Ton', preview: 'Probehören', volume: 'Lautstärke', sound: 'Alarmton abspielen',
  soundHint: 'Ohne Ton zeigen Banner, Tab-Titel und Benachrichtigung den Alarm trotzdem an.',
  notify: 'Systembenachrichtigung (wenn der Tab im Hintergrund ist)', allow: 'Erlauben',
  permission: { granted: 'erlaubt', denied: 'blockiert – in den Browser-Einstellungen der Seite erlauben', default: 'noch nicht erlaubt', unsupported: 'von diesem Browser nicht unterstützt' },
  saved: 'Gespeichert.', kiosk: 'Alarmmonitor für die Wache öffnen',
  kioskHint: 'Vollbild mit großer Anzeige, für einen Bildschirm auf der Wache (in diesem Browser angemeldet).',
}, {
  title: 'Alarm settings', close: 'Close', which: 'Which alarms ring', own: 'My unit only', all: 'All units',
  ownHint: 'Rings only when the unit you occupy enters an alarm status.',
  ownHidden: 'Your unit is not visible to your rank – every alarm rings.',
  tone: 'Tone', preview: 'Preview', volume: 'Volume', sound: 'Play the alarm sound',
  soundHint: 'Without sound, the banner, the tab title and the notification still show the alarm.',
  notify: 'System notification (while the tab is in the background)', allow: 'Allow',
  permission: { granted: 'allowed', denied: 'blocked – allow it in the browser\'s site settings', default: 'not allowed yet', unsupported: 'not supported by this browser' },
  saved: 'Saved.', kiosk: 'Open the station alarm monitor',
  kioskHint: 'Full screen with a large display, for a screen at the station (signed in in this browser).',
});

const tones: Tone[] = ['gong', 'siren', 'beep'];

/**
 * The person's alarm preferences (saved in PUT /me/preferences, so every board of theirs and the
 * kiosk follow): which alarms ring, tone with a preview, volume, sound on or off, and the
 * permission for system notifications. A popover under the bell button; Escape or a click outside
 * closes it.
 */
export function AlarmPrefs({ onClose }: { onClose: () => void }) {
  const t = text();
  const names = toneNames();
  const action = useAction();
  const box = useRef<HTMLDivElement>(null);
  const p = prefs.value;
  const [volume, setVolume] = useState(p?.alarmVolume ?? 80);
  useEffect(() => setVolume(p?.alarmVolume ?? 80), [p?.alarmVolume]);

  useEffect(() => {
    box.current?.querySelector<HTMLElement>('input:not(:disabled)')?.focus();
    const outside = (e: Event) => {
      const anchor = box.current?.parentElement;
      if (anchor && !anchor.contains(e.target as Node)) onClose();
    };
    addEventListener('pointerdown', outside);
    return () => {
      removeEventListener('pointerdown', outside);
      document.getElementById('alarm-prefs-button')?.focus();
    };
  }, []);

  /** Shows the change at once and saves it; the server's refusal puts the old value back. */
  function save(change: Partial<Prefs>) {
    const before = prefs.peek();
    if (before) prefs.value = { ...before, ...change };
    void action.run(() => savePrefs(change).catch((err) => {
      if (before) prefs.value = before;
      throw err;
    }), () => t.saved);
  }
  async function preview() {
    await unlockAudio();
    previewTone(prefs.peek()?.alarmTone ?? 'gong', volume);
  }

  if (!p) return null;
  const ownOk = ownUnitVisible();
  const permission = notifyPermission.value;
  return (
    <div id="alarm-prefs" class="alarm-prefs card" role="dialog" aria-labelledby="alarm-prefs-title" ref={box}
      onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <div class="prefs-head">
        <h2 id="alarm-prefs-title"><Icon name="bell" /> {t.title}</h2>
        <button type="button" class="small" id="alarm-prefs-close" aria-label={t.close} onClick={onClose}><Icon name="close" /></button>
      </div>
      <fieldset>
        <legend>{t.which}</legend>
        <label class="choice"><input type="radio" name="alarm-scope" id="alarm-scope-own" checked={p.alarmScope === 'own'} disabled={!ownOk}
          onChange={() => save({ alarmScope: 'own' })} /> {t.own}</label>
        <label class="choice"><input type="radio" name="alarm-scope" id="alarm-scope-all" checked={p.alarmScope === 'all'}
          onChange={() => save({ alarmScope: 'all' })} /> {t.all}</label>
        <p class="muted hint">{ownOk ? t.ownHint : t.ownHidden}</p>
      </fieldset>
      <fieldset>
        <legend>{t.tone}</legend>
        <div class="tones">
          {tones.map((tone) => (
            <label class="choice"><input type="radio" name="alarm-tone" id={`alarm-tone-${tone}`} checked={p.alarmTone === tone}
              onChange={() => save({ alarmTone: tone })} /> {names[tone]}</label>
          ))}
          <button type="button" id="alarm-preview" class="small" onClick={() => void preview()}><Icon name="play" /> {t.preview}</button>
        </div>
        <label class="volume">{t.volume} <output for="alarm-volume">{volume} %</output>
          <input type="range" id="alarm-volume" min={0} max={100} step={5} value={volume}
            onInput={(e) => setVolume(Number((e.target as HTMLInputElement).value))}
            onChange={(e) => save({ alarmVolume: Number((e.target as HTMLInputElement).value) })} />
        </label>
        <label class="choice"><input type="checkbox" id="alarm-sound" checked={p.alarmSound}
          onChange={(e) => save({ alarmSound: (e.target as HTMLInputElement).checked })} /> {t.sound}</label>
        {!p.alarmSound && <p class="muted hint">{t.soundHint}</p>}
      </fieldset>
      <p class="notify" id="alarm-notify">
        <span>{t.notify}: <b>{t.permission[permission]}</b></span>
        {permission === 'default' && <button type="button" class="small" id="alarm-notify-allow" onClick={() => void askNotifications()}>{t.allow}</button>}
      </p>
      <p class="kiosk-link">
        <a id="alarm-kiosk-link" href={`/dispatch/alarm?guild=${encodeURIComponent(guild.value?.guildId ?? '')}`} target="_blank" rel="noopener">{t.kiosk} ↗</a>
        <br /><span class="muted">{t.kioskHint}</span>
      </p>
      <Result action={action} id="alarm-prefs-result" />
    </div>
  );
}
