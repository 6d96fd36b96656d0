import { signal } from '@preact/signals';

/** An alarm that rang and is not acknowledged yet; `active` while its unit is still in alarm. */
export interface PendingAlarm { callsign: string; at: number; active: boolean }

/** Unacknowledged alarms, oldest first: what the banner shows and the tone rings for. */
export const pending = signal<readonly PendingAlarm[]>([]);

type EnteredListener = (callsigns: string[]) => void;
const enteredListeners = new Set<EnteredListener>();
/** Calls `fn` with the callsigns that have just entered the alarm (and ring). Returns the unsubscribe. */
export function onEntered(fn: EnteredListener): () => void {
  enteredListeners.add(fn);
  return () => enteredListeners.delete(fn);
}

let scopeKey = '';
let previous = new Set<string>();

/**
 * Acknowledged callsigns still in alarm, kept for this tab (sessionStorage) so a reload does not
 * ring again for an alarm already acknowledged; a callsign leaves the list when it leaves the alarm.
 */
function acknowledged(): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(`dt.alarm.ack.${scopeKey}`) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}
function keepAcknowledged(set: Set<string>): void {
  sessionStorage.setItem(`dt.alarm.ack.${scopeKey}`, JSON.stringify([...set]));
}

/**
 * Starts tracking for `key` (the guild, plus the kiosk's unit filter): forgets what the previous
 * key rang for. The first list after it rings for every callsign in it except those acknowledged
 * in this tab before.
 */
export function trackFor(key: string): void {
  if (key === scopeKey) return;
  scopeKey = key;
  previous = new Set();
  pending.value = [];
}

/**
 * The callsigns in alarm that ring here now (after the person's scope or the kiosk's filter). A
 * callsign that was not in the last list has entered: it rings, even if it rang before, left the
 * alarm and came back. One that left stays pending (marked inactive) until acknowledged.
 */
export function updateAlarms(relevant: readonly string[]): void {
  const now = new Set(relevant);
  const acked = acknowledged();
  let ackChanged = false;
  for (const c of acked) if (!now.has(c)) {
    acked.delete(c);
    ackChanged = true;
  }
  if (ackChanged) keepAcknowledged(acked);
  const entered = relevant.filter((c) => !previous.has(c) && !acked.has(c));
  previous = now;
  const at = Date.now();
  const list = pending.peek();
  const next = list.map((p) => {
    const active = now.has(p.callsign);
    if (entered.includes(p.callsign)) return { callsign: p.callsign, at, active: true };
    return p.active === active ? p : { ...p, active };
  });
  for (const c of entered) if (!list.some((p) => p.callsign === c)) next.push({ callsign: c, at, active: true });
  if (entered.length || next.some((p, i) => p !== list[i])) pending.value = next;
  if (entered.length) for (const fn of enteredListeners) fn(entered);
}

/** "Quittieren": the pending alarms are acknowledged; those still in alarm do not ring again until they leave it and return. */
export function acknowledge(): void {
  const acked = acknowledged();
  for (const p of pending.peek()) if (p.active) acked.add(p.callsign);
  keepAcknowledged(acked);
  pending.value = [];
}

/** Forgets pending alarms that have ended (the kiosk shows only what is in alarm now). */
export function dropEnded(): void {
  const list = pending.peek();
  if (list.some((p) => !p.active)) pending.value = list.filter((p) => p.active);
}

/** The crew took over its own unit's alarm ("Übernehmen"): that unit stops ringing; other pending alarms stay. */
export function acknowledgeOne(callsign: string): void {
  const acked = acknowledged();
  if (previous.has(callsign)) acked.add(callsign);
  keepAcknowledged(acked);
  const list = pending.peek();
  if (list.some((p) => p.callsign === callsign)) pending.value = list.filter((p) => p.callsign !== callsign);
}
