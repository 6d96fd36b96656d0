import { signal } from '@preact/signals';

export type Tone = 'gong' | 'siren' | 'beep';

/**
 * Sound for the board: the alarm (loud, repeating until stopped) and the short chime of a new
 * call, made with Web Audio (no sound files). Browsers start audio only after a click on the page:
 * `unlockAudio()` is called from one, and `soundAllowed` says whether it happened.
 */
export const soundAllowed = signal(false);
/** True while the alarm tone repeats. */
export const ringing = signal(false);
/** What was played, for tests (`window.dtBoard.audio`): the audio graph itself cannot be heard in a headless browser. */
export const played = { chimes: 0, alarms: 0, lastTone: null as Tone | null, notes: 0 };

let ctx: AudioContext | null = null;
let alarmTimer: ReturnType<typeof setInterval> | null = null;
let alarmGain: GainNode | null = null;

function context(): AudioContext | null {
  if (!ctx && typeof AudioContext !== 'undefined') {
    const c = (ctx = new AudioContext());
    // The browser may suspend it again (a device change, a long idle): the board then asks anew.
    c.onstatechange = () => {
      soundAllowed.value = c.state === 'running';
    };
  }
  return ctx;
}

/** Call from a click or key press: lets the page play sound from now on. */
export async function unlockAudio(): Promise<boolean> {
  const c = context();
  if (!c) return false;
  if (c.state !== 'running') await c.resume().catch(() => {});
  soundAllowed.value = c.state === 'running';
  return soundAllowed.value;
}

/** One note: a frequency sweep `from` → `to` Hz over `length` s, starting `at`, through `out`. */
function note(c: AudioContext, out: AudioNode, at: number, from: number, to: number, length: number, type: OscillatorType): void {
  const osc = c.createOscillator();
  const env = c.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(from, at);
  osc.frequency.linearRampToValueAtTime(to, at + length);
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(1, at + 0.02);
  env.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(env).connect(out);
  osc.start(at);
  osc.stop(at + length + 0.05);
  played.notes++;
}

/** One round of a tone, starting now; returns its length in s. */
function round(c: AudioContext, out: AudioNode, tone: Tone): number {
  const t0 = c.currentTime + 0.01;
  if (tone === 'siren') {
    note(c, out, t0, 650, 1250, 0.55, 'sawtooth');
    note(c, out, t0 + 0.6, 1250, 650, 0.55, 'sawtooth');
    return 1.2;
  }
  if (tone === 'beep') {
    for (let i = 0; i < 3; i++) note(c, out, t0 + i * 0.22, 1400, 1400, 0.15, 'square');
    return 1.0;
  }
  note(c, out, t0, 880, 880, 0.9, 'sine'); // gong: a falling two-note chime
  note(c, out, t0 + 0.45, 660, 660, 1.1, 'sine');
  return 1.6;
}

function gain(c: AudioContext, volume: number): GainNode {
  const g = c.createGain();
  g.gain.value = Math.max(0, Math.min(1, volume / 100));
  g.connect(c.destination);
  return g;
}

/** The short chime of a new call from the game (once). */
export function playChime(volume = 60): void {
  played.chimes++;
  const c = context();
  if (!c || c.state !== 'running') return;
  const out = gain(c, volume * 0.6);
  note(c, out, c.currentTime + 0.01, 988, 988, 0.18, 'triangle');
  note(c, out, c.currentTime + 0.2, 1319, 1319, 0.3, 'triangle');
}

/** Starts the alarm tone, repeating until `stopAlarm()`; a running alarm keeps going. */
export function startAlarm(tone: Tone, volume: number): void {
  if (ringing.peek()) return;
  ringing.value = true;
  played.alarms++;
  played.lastTone = tone;
  const c = context();
  if (!c) return;
  alarmGain = gain(c, volume);
  const again = () => c.state === 'running' && alarmGain && round(c, alarmGain, tone);
  again();
  alarmTimer = setInterval(again, tone === 'gong' ? 2000 : 1400);
}

export function stopAlarm(): void {
  if (alarmTimer) clearInterval(alarmTimer);
  alarmTimer = null;
  alarmGain?.disconnect();
  alarmGain = null;
  ringing.value = false;
}

/** Plays one round of `tone` (the preference's "try it" button). */
export function previewTone(tone: Tone, volume: number): void {
  const c = context();
  if (!c || c.state !== 'running') return;
  round(c, gain(c, volume), tone);
}

// Made at once, so `soundAllowed` says from the start whether the browser lets this page play
// sound: a station PC whose browser allows it (an autoplay policy, a site the user often uses)
// needs no click, and a page that was never clicked stays silent until it is.
context();
