import { useEffect, useRef, useState } from 'preact/hooks';
import { httpStatusOf } from '../../app/api.ts';
import { signedOut } from '../../app/session.ts';
import { live, onNotice, onSnapshot, watching } from '../../live/board-live.ts';
import { dataVersion, shownRange } from './state.ts';
import { statsMessage, type PeriodName } from './words.ts';

export interface Loaded<T> {
  data: T | null;
  /** The server's message of the last failure (in place of the data). */
  error: string | null;
  status: number | null;
  loading: boolean;
  /** When the data shown was loaded (epoch ms). */
  at: number;
}

/**
 * Loads `fn` whenever `key` (the query) or the data version changes. The data shown stays while
 * the next answer loads (no flicker on a live refresh); an answer to an older key is dropped, so a
 * fast ‹ › ‹ never ends on the wrong period. A failure replaces the data by its message.
 */
export function useLoad<T>(key: string, fn: () => Promise<T>, enabled = true): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: null, error: null, status: null, loading: enabled, at: 0 });
  const asked = useRef(0);
  const version = dataVersion.value;
  useEffect(() => {
    if (!enabled) return;
    const mine = ++asked.current;
    setState((s) => ({ ...s, loading: true }));
    fn().then((data) => {
      if (mine !== asked.current) return;
      setState({ data, error: null, status: null, loading: false, at: Date.now() });
      noteRange(data);
    }, (err: unknown) => {
      if (mine !== asked.current) return;
      const status = httpStatusOf(err) ?? null;
      if (status === 401) signedOut('expired');
      setState({ data: null, error: statsMessage(err), status, loading: false, at: Date.now() });
    });
  }, [key, version, enabled]);
  return state;
}

/** Every stats answer names its range: the period bar shows it and steps from it. */
function noteRange(data: unknown): void {
  const d = data as { period?: PeriodName; range?: { firstDay: string | null; lastDay: string; timeZone: string } } | null;
  if (!d?.period || !d.range) return;
  const r = shownRange.peek();
  if (r?.period === d.period && r.firstDay === d.range.firstDay && r.lastDay === d.range.lastDay && r.timeZone === d.range.timeZone) return;
  shownRange.value = { period: d.period, firstDay: d.range.firstDay, lastDay: d.range.lastDay, timeZone: d.range.timeZone };
}

/** At most one reload this often, however many people clock in or out at once. */
export const REFRESH_GAP_MS = 3000;
/** Open shifts count up to now: while someone is on duty the numbers grow, so they are read again this often. */
export const TICK_MS = 60_000;

/**
 * While the tab is open: reload when the `onDuty` topic changes (a clock-in or -out anywhere in the
 * guild), when settings change (the staffing minimum), after a snapshot (notices may have been
 * missed) and once a minute while someone is on duty — throttled to one reload per REFRESH_GAP_MS,
 * the first at once and the last of a burst never lost. Returns the unlink.
 */
export function linkStatsLive(): () => void {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const bump = () => {
    last = Date.now();
    timer = null;
    dataVersion.value++;
  };
  const request = () => {
    if (timer) return;
    const wait = last + REFRESH_GAP_MS - Date.now();
    if (wait <= 0) bump();
    else timer = setTimeout(bump, wait);
  };
  const offs = [onNotice('onDuty', request), onNotice('settings', request), onSnapshot(request)];
  const tick = setInterval(() => {
    // Without the onDuty topic the board cannot know whether anyone is on duty: read anyway.
    const someoneOnDuty = !watching.peek().includes('onDuty') || live.onDuty.keys.peek().length > 0;
    if (someoneOnDuty && document.visibilityState === 'visible') request();
  }, TICK_MS);
  return () => {
    for (const off of offs) off();
    clearInterval(tick);
    if (timer) clearTimeout(timer);
  };
}
