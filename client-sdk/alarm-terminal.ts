/**
 * `dispatch-terminal alarm`: the alarm client of a station PC in a terminal. Signs in once with a
 * one-time login link (the session is kept in a state file), prints every alarm with its time and
 * callsign and, for the own unit, the incident (keyword, priority, address, message, units) and
 * its live changes; announces it through espeak-ng when installed, then plays the tone (else the
 * tone, else the terminal bell). A status line says whether alarms get through. German or English.
 */
import { jitteredBackoff } from './live.ts';
import type { AlarmState } from './router.ts';
import { watchAlarms, type AlarmWatchOptions } from './alarm-client.ts';
import { forgetSession, logout, openAlarmSession, readSavedSession } from './alarm-session.ts';
import { createTonePlayer } from './alarm-tone.ts';
import { createSpeaker } from './alarm-speech.ts';
import { createScreen } from './alarm-screen.ts';
import { alarmKey, incidentChanges, incidentLines, spokenText, type CrewIncident } from './alarm-incident.ts';
import { both, words, type Lang, type Text } from './alarm-words.ts';

export interface AlarmTerminalOptions {
  /** One-time login link; optional once `stateFile` holds a session. */
  link?: string;
  stateFile: string;
  /** Player command and arguments (the tone file is appended); `null`: the terminal bell; absent: paplay, aplay or afplay. */
  player?: string[] | null;
  /** Announcements: a command (voice and text are appended), `false` for none; absent: espeak-ng when installed. */
  speak?: string[] | false;
  /** Language of every line and announcement (default German). */
  lang?: Lang;
  /** Writes one line of output (default: stdout, with a status line at the bottom on a terminal). */
  write?: (line: string) => void;
  retryDelayMs?: (attempt: number) => number;
  heartbeatMs?: number;
  WebSocket?: AlarmWatchOptions['WebSocket'];
  /** How long the alarm of the own unit waits for its incident before it is announced without it (default 1000 ms). */
  incidentWaitMs?: number;
}

/** Local time as `YYYY-MM-DD HH:MM:SS`. */
export function stamp(at = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())} ${p(at.getHours())}:${p(at.getMinutes())}:${p(at.getSeconds())}`;
}

const INDENT = ' '.repeat(stamp().length + 2);

/**
 * Runs the alarm client. `done` resolves after `stop()`, and rejects with an AlarmSessionError
 * (whose `text` says what to do, in both languages) when the link or the session cannot sign in (any more).
 */
export function startAlarmTerminal(opts: AlarmTerminalOptions) {
  const lang = opts.lang ?? 'de';
  const w = words[lang];
  const screen = createScreen({ lang, write: opts.write });
  const say = (text: Text | string) => screen.line(`${stamp()}  ${typeof text === 'string' ? text : text[lang]}`);
  const retryDelayMs = opts.retryDelayMs ?? jitteredBackoff;
  const stopping = new AbortController();
  let watch: ReturnType<typeof watchAlarms> | null = null;
  const startedAt = Date.now();

  const done = (async () => {
    const session = await openAlarmSession({
      link: opts.link, stateFile: opts.stateFile, retryDelayMs, signal: stopping.signal,
      notice: (_en, text, kind) => {
        say(text);
        if (kind === 'unreachable' && screen.health?.kind !== 'no-connection') screen.status({ kind: 'no-connection', since: startedAt }, stamp);
      },
    }).catch((err) => {
      if (stopping.signal.aborted) return null; // stopped while waiting for the server
      throw err;
    });
    if (!session || stopping.signal.aborted) return;
    const tone = createTonePlayer({ player: opts.player, warn: (_en, text) => say(text), bell: screen.bell });
    const speaker = createSpeaker({ command: opts.speak, lang, warn: say });
    say(both((x) => x.signedIn(session.nickname, session.guild, session.guildId, opts.stateFile)));
    say(both((x, l) => x.toneThrough(tone.describeText[l])));
    say(speaker.describeText);
    screen.status({ kind: 'connecting', url: session.url }, stamp);

    // One announcement and tone after the other: two alarms close together do not talk over each other.
    let sounding = Promise.resolve();
    const announce = (text: string) => {
      sounding = sounding.then(() => speaker.say(text)).then(() => tone.play());
    };
    let last: CrewIncident | null = null; // the own unit's incident in the last state
    let shown: CrewIncident | null = null; // the incident whose block was printed, followed live
    type Waiting = { timer: ReturnType<typeof setTimeout>; before: string | null };
    let waiting = null as Waiting | null; // an own alarm waiting for its incident

    const show = (unit: string, incident: CrewIncident) => {
      for (const l of incidentLines(w, unit, incident)) screen.line(`${INDENT}${l}`);
      shown = incident;
    };
    // The own unit's alarm names the own unit only ("Einsatz für RTW 1, …"): the others are in the units line.
    const ringOwn = (unit: string, incident: CrewIncident | null) => {
      if (incident) show(unit, incident);
      announce(spokenText(w, [unit], incident));
    };

    const onAlarm = (callsigns: string[], state: AlarmState) => {
      const at = stamp();
      for (const callsign of callsigns) screen.line(`${at}  ALARM  ${callsign}`);
      const unit = state.unit;
      if (!unit || !callsigns.includes(unit)) {
        screen.line(`${INDENT}${w.unknownIncident}`);
        return announce(spokenText(w, callsigns, null));
      }
      // The alarm goes out at once; the incident read follows it within milliseconds (a new key).
      const before = last ? alarmKey(last) : null;
      if (state.incident && alarmKey(state.incident) !== before) return ringOwn(unit, state.incident);
      if (waiting) clearTimeout(waiting.timer);
      waiting = { before, timer: setTimeout(() => {
        waiting = null;
        ringOwn(unit, null);
      }, opts.incidentWaitMs ?? 1000) };
    };

    const onState = (state: AlarmState) => {
      if (screen.health?.kind !== 'ready' && screen.health?.kind !== 'no-database') screen.status({ kind: 'ready' }, stamp);
      const incident = state.unit ? state.incident : null;
      if (waiting && incident && alarmKey(incident) !== waiting.before) {
        clearTimeout(waiting.timer);
        waiting = null;
        ringOwn(state.unit!, incident);
      } else if (shown && incident && alarmKey(incident) === alarmKey(shown)) {
        for (const change of incidentChanges(w, shown, incident)) say(`${w.incident(incident.number)}: ${change}`);
        shown = incident;
      } else if (shown && !incident) {
        say(w.closed(shown.number));
        shown = null;
      }
      last = incident;
    };

    try {
      watch = watchAlarms({
        session, retryDelayMs, heartbeatMs: opts.heartbeatMs, WebSocket: opts.WebSocket, onAlarm, onState,
        onNotice: (_en, text, kind) => {
          if (text) say(text);
          if (kind === 'lost' || kind === 'watch-failed') {
            if (screen.health?.kind !== 'no-connection') screen.status({ kind: 'no-connection', since: Date.now() }, stamp);
          } else if (kind === 'degraded') screen.status({ kind: 'no-database', since: Date.now() }, stamp);
          else if (kind === 'recovered') screen.status({ kind: 'ready' }, stamp);
        },
      });
      await watch.done;
    } finally {
      clearTimeout((waiting as Waiting | null)?.timer);
      await sounding;
      tone.close();
    }
  })();

  return {
    done: done.finally(() => screen.close()),
    stop() {
      stopping.abort();
      watch?.close();
    },
  };
}

/** `alarm --logout`: ends the saved session on the server and forgets it. */
export async function logoutSaved(stateFile: string, lang: Lang = 'en'): Promise<string> {
  const saved = readSavedSession(stateFile);
  if (!saved) return words[lang].noSaved(stateFile);
  await logout(saved);
  forgetSession(stateFile);
  return words[lang].signedOut(saved.url, stateFile);
}

/** `alarm --test-tone`: plays the tone once, to check the speakers. */
export async function testTone(player: string[] | null | undefined, lang: Lang = 'en'): Promise<string> {
  const tone = createTonePlayer({ player, warn: (_en, text) => process.stdout.write(`${text[lang]}\n`) });
  try {
    await tone.play();
    return words[lang].played(tone.describeText[lang]);
  } finally {
    tone.close();
  }
}
