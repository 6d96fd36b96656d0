import { batch, effect, signal, type Signal } from '@preact/signals';
import { playChime } from '../../alarm/audio.ts';
import { guild, prefs } from '../../app/session.ts';
import { live, onNotice, onSnapshot } from '../../live/board-live.ts';

/** How long a new (or re-reported) call stands out in the list. */
const FLASH_MS = 8000;
/** At most one chime in this time: a burst of calls (a script reporting many at once) is one tone, not a drum roll. */
const CHIME_GAP_MS = 1000;
let lastChime = 0;

let known = new Set<string>();
const fresh = new Map<string, Signal<boolean>>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();

/** True for a few seconds after a call arrived or was reported again while the board was open. */
export function freshOf(id: string): Signal<boolean> {
  let s = fresh.get(id);
  if (!s) fresh.set(id, (s = signal(false)));
  return s;
}

function flash(id: string): void {
  freshOf(id).value = true;
  clearTimeout(timers.get(id));
  timers.set(id, setTimeout(() => {
    timers.delete(id);
    freshOf(id).value = false;
  }, FLASH_MS));
}

let linked = false;
/**
 * New calls while the board is open: a short tone (unless the person turned the board's sound off
 * in their preferences) and a flash of the row, on whichever tab is open. Calls of a snapshot (the
 * board just opened, or resumed after its missed deltas were gone) are already known: no tone.
 * A re-report of an open call flashes its row without a tone; a burst of new calls chimes once a second at most.
 */
export function linkCallArrivals(): void {
  if (linked) return;
  linked = true;
  onSnapshot(() => {
    known = new Set(live.calls.keys.peek());
  });
  onNotice('calls', (ops) => {
    let arrived = false;
    batch(() => {
      for (const op of ops) {
        const id = op.key;
        if (typeof id !== 'string') continue;
        if (live.calls.peek(id) === undefined) {
          known.delete(id);
          continue;
        }
        if (!known.has(id)) {
          known.add(id);
          arrived = true;
        }
        flash(id);
      }
    });
    const p = prefs.peek();
    if (!arrived || p?.alarmSound === false || Date.now() - lastChime < CHIME_GAP_MS) return;
    lastChime = Date.now();
    playChime(p?.alarmVolume ?? 60);
  });
  effect(() => {
    guild.value; // another guild: its calls come with its snapshot
    known = new Set();
  });
}
