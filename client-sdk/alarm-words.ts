/**
 * Every line the terminal alarm client prints, in German and English. `both(w => w.x(...))` makes
 * a text in both languages at the place something happens; whoever prints it picks the language.
 * The server's own error messages (quoted inside some lines) stay as the server wrote them.
 */
export type Lang = 'de' | 'en';
export type Text = Readonly<Record<Lang, string>>;

/** `--lang de|en`, else LC_ALL, LC_MESSAGES or LANG (`en_GB.UTF-8` → en), else German. */
export function pickLang(flag: string | undefined, env: Record<string, string | undefined> = process.env): Lang {
  if (flag !== undefined) {
    if (flag === 'de' || flag === 'en') return flag;
    throw new Error(`--lang must be de or en, not ${JSON.stringify(flag)} / --lang muss de oder en sein`);
  }
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return /^en([_.@-]|$)/i.test(locale) ? 'en' : 'de';
}

const seconds = (s: number) => `${s} s`;

const de = {
  ready: 'Alarm bereit',
  connecting: (url: string) => `Alarmierung gestört — verbinde mit ${url} …`,
  noConnection: (s: number) => `Alarmierung gestört — keine Verbindung seit ${seconds(s)}`,
  noDatabase: (s: number) => `Alarmierung gestört — der Server erreicht seine Datenbank nicht, seit ${seconds(s)}`,
  connected: (url: string) => `verbunden mit ${url}`,
  connectedAgain: 'wieder verbunden',
  lost: (code: number, reason: string) => `Verbindung verloren (${code}${reason ? ` ${reason}` : ''}); verbinde neu`,
  onDuty: 'du bist im Dienst',
  offDuty: 'du bist nicht im Dienst',
  degraded: 'der Server erreicht seine Datenbank nicht: Alarme können verspätet kommen, bis sie wieder da ist',
  recovered: 'der Server erreicht seine Datenbank wieder',
  watchFailed: (why: string, s: string) => `die Alarmüberwachung ist fehlgeschlagen (${why}); neuer Versuch in ${s} s`,
  cannotReach: (url: string, why: string) => `${url} ist nicht erreichbar (${why}); neuer Versuch`,
  linkUsedKeepSaved: (file: string) => `der Anmeldelink gilt nicht mehr; weiter mit der in ${file} gespeicherten Sitzung`,
  signedIn: (nick: string, guild: string, id: string, file: string) => `angemeldet als ${nick} in ${guild} (Guild ${id}); Sitzung gespeichert in ${file}`,
  toneThrough: (what: string) => `Alarmton über ${what}`,
  bell: 'die Terminalglocke (kein paplay, aplay oder afplay gefunden)',
  speechThrough: (what: string) => `Ansage über ${what}`,
  noSpeech: 'keine Ansage (espeak-ng nicht gefunden)',
  speechOff: 'keine Ansage (--no-speech)',
  playerFailed: (player: string, why: string) => `der Player ${player} ${why}; stattdessen die Terminalglocke`,
  couldNotRun: (msg: string) => `konnte nicht starten (${msg})`,
  exitedWith: (code: number) => `endete mit ${code}`,
  killed: (signal: string) => `wurde beendet (${signal})`,
  speechFailed: (why: string) => `die Ansage über espeak-ng ging nicht (${why}); nur der Ton`,
  noSaved: (file: string) => `keine gespeicherte Sitzung in ${file}`,
  signedOut: (url: string, file: string) => `abgemeldet bei ${url}; ${file} entfernt`,
  played: (what: string) => `Alarmton gespielt über ${what}`,
  incident: (n: number) => `Einsatz ${n}`,
  priority: (p: number) => `Priorität ${p}`,
  address: 'Adresse',
  message: 'Meldung',
  units: 'Einheiten',
  acknowledged: 'übernommen',
  unknownIncident: 'Einsatz noch nicht bekannt (nur das eigene Fahrzeug zeigt Stichwort und Adresse)',
  keywordNow: (keyword: string, p: number) => `Stichwort jetzt ${keyword}, Priorität ${p}`,
  addressNow: (a: string) => `Adresse jetzt ${a}`,
  messageNow: (m: string) => `Meldung: ${m}`,
  unitAcknowledged: (c: string) => `${c} hat übernommen`,
  unitAlarmed: (c: string) => `${c} nachalarmiert`,
  entry: (text: string, by: string | null) => `${text}${by ? ` (${by})` : ''}`,
  closed: (n: number) => `Einsatz ${n} ist beendet`,
  spoken: (callsigns: string, keyword: string | null, place: string | null) => [`Einsatz für ${callsigns}`, keyword, place].filter(Boolean).join(', '),
  and: 'und',
  sessionEnded: (hint: string) => `die Sitzung ist beendet (abgemeldet, widerrufen oder länger als einen Tag unbenutzt): ${hint}`,
  newLinkHint: (guild: string, user: string) => `neuen Link holen mit: npx dispatch-terminal login-link --guild ${guild} --user ${user}`,
  watchForbidden: (why: string) => `der Server lässt diese Sitzung keine Alarme mehr überwachen: ${why}`,
  notMember: (user: string, guild: string) => `Benutzer ${user} ist nicht mehr Mitglied der Guild ${guild}`,
  notALink: (link: string) => `kein Anmeldelink: ${link} (erwartet: http(s)://<server>/auth/login/<token>)`,
  linkRefused: (status: number, why: string | null) => `Anmeldelink abgelehnt (${status}): ${why ?? 'ist das ein Dispatch-Terminal-Server?'}`,
  noSavedStart: (file: string) => `keine gespeicherte Sitzung in ${file}: starte mit einem Anmeldelink: npx dispatch-terminal alarm <Anmeldelink>`,
  notSaved: (file: string) => `${file} ist keine gespeicherte Alarmsitzung: lösche die Datei und starte mit einem Anmeldelink`,
  oneLink: (n: number) => `alarm nimmt einen Anmeldelink, bekam ${n} Argumente`,
  error: 'Fehler',
  usage: `Aufruf: dispatch-terminal alarm [<Anmeldelink>] [--player <Befehl>] [--no-speech] [--lang de|en] [--state <Datei>]
        dispatch-terminal alarm --logout | --test-tone

  Alarmclient für einen Wachen-PC: zeigt jeden Alarm mit Stichwort, Adresse und Einheiten, sagt ihn
  über espeak-ng an (wenn installiert) und spielt den Alarmton; braucht einmal einen Link (die
  Sitzung bleibt in --state, Standard ~/.config/dispatch-terminal/alarm.json); keine Datenbank nötig.
  --logout beendet die gespeicherte Sitzung, --test-tone spielt den Ton einmal.
  Sprache: --lang, sonst LANG/LC_ALL (en…: Englisch), sonst Deutsch.`,
};

export type Words = typeof de;

const en: Words = {
  ready: 'Alarms ready',
  connecting: (url) => `Alarms down — connecting to ${url} …`,
  noConnection: (s) => `Alarms down — no connection for ${seconds(s)}`,
  noDatabase: (s) => `Alarms down — the server cannot reach its database, for ${seconds(s)}`,
  connected: (url) => `connected to ${url}`,
  connectedAgain: 'connected again',
  lost: (code, reason) => `connection lost (${code}${reason ? ` ${reason}` : ''}); reconnecting`,
  onDuty: 'you are on duty',
  offDuty: 'you are off duty',
  degraded: 'the server cannot reach its database: alarms may come late until it is back',
  recovered: 'the server reaches its database again',
  watchFailed: (why, s) => `the alarm watch failed (${why}); subscribing again in ${s} s`,
  cannotReach: (url, why) => `cannot reach ${url} (${why}); trying again`,
  linkUsedKeepSaved: (file) => `the login link no longer signs in; continuing with the session saved in ${file}`,
  signedIn: (nick, guild, id, file) => `signed in as ${nick} in ${guild} (guild ${id}); session kept in ${file}`,
  toneThrough: (what) => `alarm tone through ${what}`,
  bell: 'the terminal bell (no paplay, aplay or afplay found)',
  speechThrough: (what) => `announcements through ${what}`,
  noSpeech: 'no announcements (espeak-ng not found)',
  speechOff: 'no announcements (--no-speech)',
  playerFailed: (player, why) => `the player ${player} ${why}; rang the terminal bell instead`,
  couldNotRun: (msg) => `could not run (${msg})`,
  exitedWith: (code) => `exited with ${code}`,
  killed: (signal) => `was killed (${signal})`,
  speechFailed: (why) => `the announcement through espeak-ng failed (${why}); the tone only`,
  noSaved: (file) => `no saved session in ${file}`,
  signedOut: (url, file) => `signed out of ${url}; removed ${file}`,
  played: (what) => `played the alarm tone through ${what}`,
  incident: (n) => `Incident ${n}`,
  priority: (p) => `priority ${p}`,
  address: 'Address',
  message: 'Message',
  units: 'Units',
  acknowledged: 'acknowledged',
  unknownIncident: 'incident not known yet (only the own unit shows keyword and address)',
  keywordNow: (keyword, p) => `keyword now ${keyword}, priority ${p}`,
  addressNow: (a) => `address now ${a}`,
  messageNow: (m) => `message: ${m}`,
  unitAcknowledged: (c) => `${c} acknowledged`,
  unitAlarmed: (c) => `${c} alarmed too`,
  entry: (text, by) => `${text}${by ? ` (${by})` : ''}`,
  closed: (n) => `incident ${n} is closed`,
  spoken: (callsigns, keyword, place) => [`Alarm for ${callsigns}`, keyword, place].filter(Boolean).join(', '),
  and: 'and',
  sessionEnded: (hint) => `the session has ended (signed out, revoked, or unused for more than a day): ${hint}`,
  newLinkHint: (guild, user) => `get a new link with: npx dispatch-terminal login-link --guild ${guild} --user ${user}`,
  watchForbidden: (why) => `the server no longer lets this session watch alarms: ${why}`,
  notMember: (user, guild) => `user ${user} is no longer a member of guild ${guild}`,
  notALink: (link) => `not a login link: ${link} (expected http(s)://<server>/auth/login/<token>)`,
  linkRefused: (status, why) => `login link refused (${status}): ${why ?? 'is this a Dispatch Terminal server?'}`,
  noSavedStart: (file) => `no saved session in ${file}: start with a login link: npx dispatch-terminal alarm <login-link>`,
  notSaved: (file) => `${file} is not a saved alarm session: delete it and start with a login link`,
  oneLink: (n) => `alarm takes one login link, got ${n} arguments`,
  error: 'error',
  usage: `usage: dispatch-terminal alarm [<login-link>] [--player <cmd>] [--no-speech] [--lang de|en] [--state <file>]
       dispatch-terminal alarm --logout | --test-tone

  alarm client for a station PC: prints every alarm with keyword, address and units, announces it
  through espeak-ng (when installed) and plays the tone; needs a link once (the session is kept in
  --state, default ~/.config/dispatch-terminal/alarm.json); no database needed.
  --logout ends the saved session, --test-tone plays the tone once.
  Language: --lang, else LANG/LC_ALL (en…: English), else German.`,
};

export const words: Readonly<Record<Lang, Words>> = { de, en };

/** The same message in both languages. */
export function both(say: (w: Words, lang: Lang) => string): Text {
  return { de: say(de, 'de'), en: say(en, 'en') };
}

/** An error whose message exists in both languages (`message` is the English one). */
export class BilingualError extends Error {
  constructor(readonly text: Text) {
    super(text.en);
  }
}

/** What to print for a failure in `lang`: the bilingual text when there is one. */
export function textOf(err: unknown, lang: Lang): string {
  const text = (err as { text?: Text })?.text;
  return text?.[lang] ?? (err as Error)?.message ?? String(err);
}
