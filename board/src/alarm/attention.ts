import { effect, signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { soundAllowed, startAlarm, stopAlarm, unlockAudio, type Tone } from './audio.ts';
import { onEntered, pending } from './tracker.ts';

/** How the alarm sounds here: the person's preferences on the board, the monitor's on the kiosk. */
export interface ToneSettings { on: boolean; tone: Tone; volume: number }

/**
 * The tone repeats while an unacknowledged alarm is still active and sound is on; it stops on
 * "Quittieren", when every pending alarm has ended, and when the view goes away. A change of tone
 * or volume while ringing takes effect at once.
 */
export function useAlarmTone(settings: () => ToneSettings): void {
  useEffect(() => {
    let playing = '';
    const dispose = effect(() => {
      const s = settings();
      const ring = s.on && pending.value.some((p) => p.active);
      const key = ring ? `${s.tone}:${s.volume}` : '';
      if (key === playing) return;
      stopAlarm();
      if (ring) startAlarm(s.tone, s.volume);
      playing = key;
    });
    return () => {
      dispose();
      stopAlarm();
    };
  }, []);
}

/** While alarms are unacknowledged the tab title alternates between "🚨 ALARM RTW-1" and the normal title, once a second. */
export function useTitleBlink(): void {
  useEffect(() => effect(() => {
    const list = pending.value;
    if (!list.length) return;
    const normal = document.title;
    const alarm = `🚨 ALARM ${list.map((p) => p.callsign).join(', ')}`;
    let showAlarm = true;
    document.title = alarm;
    const timer = setInterval(() => {
      showAlarm = !showAlarm;
      document.title = showAlarm ? alarm : normal;
    }, 1000);
    return () => {
      clearInterval(timer);
      document.title = normal;
    };
  }), []);
}

/** Notification permission as the browser has it ('unsupported' where the API is missing). */
export const notifyPermission = signal<NotificationPermission | 'unsupported'>(
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission,
);

/** Asks for permission to show system notifications; call from a click. */
export async function askNotifications(): Promise<void> {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  notifyPermission.value = await Notification.requestPermission().catch(() => Notification.permission);
}

/**
 * A system notification for each alarm that enters while the tab is hidden (another tab, a
 * minimised window); a click on it brings the board to the front. "Quittieren" closes them.
 */
export function useAlarmNotifications(body: (callsign: string) => string, title: (callsign: string) => string): void {
  useEffect(() => {
    const open = new Set<Notification>();
    const off = onEntered((callsigns) => {
      if (document.visibilityState !== 'hidden' || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
      for (const c of callsigns) {
        const n = new Notification(title(c), { body: body(c), tag: `dt-alarm-${c}`, requireInteraction: true });
        n.onclick = () => {
          window.focus();
          n.close();
        };
        n.onclose = () => open.delete(n);
        open.add(n);
      }
    });
    const closeAll = effect(() => {
      if (pending.value.length) return;
      for (const n of open) n.close();
      open.clear();
    });
    return () => {
      off();
      closeAll();
    };
  }, []);
}

/** Browsers allow sound only after a click: any click or key press on the page allows it. */
export function useUnlockOnAnyInput(): void {
  useEffect(() => {
    const unlock = () => {
      if (!soundAllowed.peek()) void unlockAudio();
    };
    addEventListener('click', unlock, true);
    addEventListener('keydown', unlock, true);
    return () => {
      removeEventListener('click', unlock, true);
      removeEventListener('keydown', unlock, true);
    };
  }, []);
}

/** The "Ton aktivieren" click: allows sound and asks once for notifications. */
export function enableSound(): void {
  void unlockAudio();
  void askNotifications();
}
