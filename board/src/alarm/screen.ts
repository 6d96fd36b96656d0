import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';

/** `on` while the screen is kept awake; `unsupported` without the Screen Wake Lock API; `failed` when the browser refused. */
export type WakeState = 'off' | 'on' | 'unsupported' | 'failed';
export const wakeState = signal<WakeState>('off');

/**
 * Keeps the screen awake while the page is shown (Screen Wake Lock API). The browser releases the
 * lock whenever the page is hidden; it is taken again when the page is visible again, and after a
 * refusal on the next click or key press.
 */
export function useWakeLock(): void {
  useEffect(() => {
    let lock: WakeLockSentinel | null = null;
    let asking = false;
    let done = false;
    async function acquire() {
      if (!('wakeLock' in navigator)) {
        wakeState.value = 'unsupported';
        return;
      }
      if (lock || asking || done || document.visibilityState !== 'visible') return;
      asking = true;
      try {
        const next = await navigator.wakeLock.request('screen');
        if (done) return void next.release();
        lock = next;
        wakeState.value = 'on';
        next.addEventListener('release', () => {
          lock = null;
          if (!done) wakeState.value = 'off';
        });
      } catch {
        wakeState.value = 'failed';
      } finally {
        asking = false;
      }
    }
    const onVisible = () => void acquire();
    const onInput = () => wakeState.peek() !== 'on' && void acquire();
    document.addEventListener('visibilitychange', onVisible);
    addEventListener('click', onInput, true);
    addEventListener('keydown', onInput, true);
    void acquire();
    return () => {
      done = true;
      document.removeEventListener('visibilitychange', onVisible);
      removeEventListener('click', onInput, true);
      removeEventListener('keydown', onInput, true);
      void lock?.release();
    };
  }, []);
}

/** Whether the page fills the screen (Fullscreen API). */
export const fullscreen = signal(typeof document !== 'undefined' && !!document.fullscreenElement);
if (typeof document !== 'undefined') {
  document.addEventListener('fullscreenchange', () => {
    fullscreen.value = !!document.fullscreenElement;
  });
}

/** Call from a click: fills the screen, or leaves full screen. */
export function toggleFullscreen(): void {
  if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
  else void document.documentElement.requestFullscreen?.({ navigationUI: 'hide' }).catch(() => {});
}
