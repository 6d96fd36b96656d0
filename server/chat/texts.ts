/** What the bot says, in German and English (by the Discord client's language of whoever asks). */

const ts = (d: Date, style: 't' | 'R' | 'f' = 't') => `<t:${Math.floor(d.getTime() / 1000)}:${style}>`;
/** YYYY-MM-DD → DD.MM.YYYY. */
const deDay = (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`;
/** A change in percent with its sign: "+12,5", "−35,8" (a real minus sign), "0". */
const signed = (pct: number, lang: 'de' | 'en') => `${pct > 0 ? '+' : pct < 0 ? '−' : ''}${Math.abs(pct).toLocaleString(lang === 'de' ? 'de-DE' : 'en-GB', { maximumFractionDigits: 1 })}`;

export type StatsPeriod = 'daily' | 'weekly' | 'monthly' | 'alltime';

const de = {
  noInstance: 'Diese Wache ist auf dem Server nicht eingerichtet.',
  noPerson: 'Du hast in dieser Wache keinen Personaleintrag. Bitte eine Leitung, dich anzulegen.',
  noBadge: 'Du hast noch keine Dienstnummer. Bitte eine Leitung, dir eine zu geben.',
  noClockRight: 'Dir fehlt die Berechtigung zum Stempeln (timeclock.own.use).',
  clockOff: 'Die Stempeluhr ist in dieser Wache ausgeschaltet.',
  clockedIn: (at: Date) => `Eingestempelt um ${ts(at)}. Guten Dienst!`,
  clockedOut: (from: Date, to: Date) => `Ausgestempelt um ${ts(to)} (Dienst seit ${ts(from)}).`,
  alreadyIn: 'Du bist bereits eingestempelt.',
  notIn: 'Du bist nicht eingestempelt.',
  notAdmin: 'Das dürfen nur Admins dieser Wache (Discord-Recht „Server verwalten“ oder die Fähigkeit settings.manage).',
  panelPosted: 'Das Stempeluhr-Panel steht jetzt in diesem Kanal und folgt jedem Ein- und Ausstempeln.',
  panelNoAccess: 'Ich darf in diesem Kanal nicht schreiben. Gib dem Bot „Nachrichten senden“ und „Links einbetten“ und versuche es erneut.',
  loginLink: (url: string) => `Dein Einmal-Link zum Board (15 Minuten gültig, nur für dich):\n${url}`,
  loginAdded: 'Du warst noch nicht im Personal dieser Wache und bist jetzt als Admin eingetragen.',
  keyCreateNotAdmin: 'Schlüssel mit Vollzugriff dürfen nur Admins dieser Wache erstellen (Discord-Recht „Server verwalten“ oder Admin im Personal), denn ein solcher Schlüssel darf alles. Eingeschränkte Schlüssel für Spiel-Skripte gibt es im Board unter Einstellungen → API-Schlüssel.',
  keyModalTitle: 'Neuer API-Schlüssel',
  keyModalName: 'Name des Schlüssels',
  keyCreated: (name: string, key: string) => `Schlüssel „${name}“ erstellt. Er wird **nur jetzt** angezeigt – kopiere ihn in dein Skript:\n\`\`\`\n${key}\n\`\`\``,
  keyBadName: (why: string) => `Der Name geht nicht: ${why}`,
  keysNone: 'Diese Wache hat keine API-Schlüssel.',
  keysTitle: (n: number) => `API-Schlüssel (${n})`,
  keyLine: (last4: string, created: Date, used: Date | null, scoped: boolean) => `…${last4} · erstellt ${ts(created, 'f')} · ${used ? `zuletzt benutzt ${ts(used, 'R')}` : 'nie benutzt'}${scoped ? ' · eingeschränkt' : ''}`,
  keyUnknown: (what: string) => `Kein Schlüssel „${what}“ in dieser Wache.`,
  keyAmbiguous: (what: string) => `Mehrere Schlüssel heißen „${what}“ – wähle einen aus der Vorschlagsliste.`,
  keyConfirm: (name: string, last4: string) => `Schlüssel „${name}“ (…${last4}) wirklich löschen? Skripte, die ihn benutzen, verlieren sofort den Zugriff.`,
  keyDeleted: (name: string) => `Schlüssel „${name}“ ist gelöscht.`,
  keyGone: 'Der Schlüssel war schon gelöscht.',
  cancelled: 'Abgebrochen – nichts gelöscht.',
  delete: 'Löschen', cancel: 'Abbrechen',
  statsOff: 'Statistik ist für diese Wache ausgeschaltet.',
  noStatsRight: 'Die Dienstzeit-Rangliste dürfen nur Mitglieder mit der Fähigkeit stats.leaderboard.view, Admins dieser Wache und wer „Server verwalten“ hat posten.',
  statsTitle: (guild: string) => `Dienstzeit-Rangliste · ${guild}`,
  statsPeriod: { daily: 'Tag', weekly: 'Woche', monthly: 'Monat', alltime: 'Gesamt' } as Record<StatsPeriod, string>,
  statsRange: (first: string | null, last: string) => (first === null ? `bis ${deDay(last)}` : first === last ? deDay(first) : `${deDay(first)} – ${deDay(last)}`),
  statsTotals: (duration: string, people: number, shifts: number) => `**${duration}** von ${people} ${people === 1 ? 'Person' : 'Personen'} · ${shifts} ${shifts === 1 ? 'Schicht' : 'Schichten'}`,
  statsPrevious: (range: string, duration: string, pct: number | null) => `Zeitraum davor (${range}): ${duration}${pct === null ? '' : ` · ${signed(pct, 'de')} %`}`,
  statsNobody: 'Niemand war in diesem Zeitraum im Dienst.',
  statsMore: (n: number) => `… und ${n} weitere`,
  statsAskedBy: (name: string) => `Angefordert von ${name}`,
  statsNoChart: 'Das Diagramm konnte gerade nicht erstellt werden (der Server ist ausgelastet oder ein Fehler trat auf). Die Rangliste oben stimmt; versuche es für das Diagramm gleich noch einmal.',
  statsFailed: 'Die Dienstzeit-Rangliste konnte nicht erstellt werden. Bitte versuche es erneut; bleibt der Fehler, sieh ins Server-Log.',
  statsDbDown: 'Die Dienstzeit-Rangliste konnte nicht erstellt werden: Die Datenbank ist gerade nicht erreichbar. Bitte versuche es gleich noch einmal.',
  dbDown: 'Die Datenbank ist gerade nicht erreichbar. Bitte versuche es gleich noch einmal.',
  failed: 'Das hat nicht geklappt. Bitte versuche es erneut; bleibt der Fehler, sieh ins Server-Log.',
};

type Texts = { [K in keyof typeof de]: (typeof de)[K] };

const en: Texts = {
  noInstance: 'This guild is not set up on the server.',
  noPerson: 'You have no personnel entry in this guild. Ask a supervisor to add you.',
  noBadge: 'You have no badge number yet. Ask a supervisor to give you one.',
  noClockRight: 'You lack the right to clock in (timeclock.own.use).',
  clockOff: 'The time clock is switched off in this guild.',
  clockedIn: (at) => `Clocked in at ${ts(at)}. Have a good shift!`,
  clockedOut: (from, to) => `Clocked out at ${ts(to)} (on duty since ${ts(from)}).`,
  alreadyIn: 'You are already clocked in.',
  notIn: 'You are not clocked in.',
  notAdmin: 'Only admins of this guild may do that (Discord permission "Manage Server" or the capability settings.manage).',
  panelPosted: 'The time-clock panel is now in this channel and follows every clock-in and clock-out.',
  panelNoAccess: 'I may not write in this channel. Give the bot "Send Messages" and "Embed Links" and try again.',
  loginLink: (url) => `Your one-time link to the board (valid for 15 minutes, only for you):\n${url}`,
  loginAdded: 'You were not in this guild\'s personnel yet and are now listed as an admin.',
  keyCreateNotAdmin: 'Only admins of this guild may create a full-access key (Discord permission "Manage Server" or admin in the personnel), because such a key may do everything. Limited keys for game scripts are in the board under Settings → API keys.',
  keyModalTitle: 'New API key',
  keyModalName: 'Name of the key',
  keyCreated: (name, key) => `Key "${name}" created. It is shown **only now** – copy it into your script:\n\`\`\`\n${key}\n\`\`\``,
  keyBadName: (why) => `That name does not work: ${why}`,
  keysNone: 'This guild has no API keys.',
  keysTitle: (n) => `API keys (${n})`,
  keyLine: (last4, created, used, scoped) => `…${last4} · created ${ts(created, 'f')} · ${used ? `last used ${ts(used, 'R')}` : 'never used'}${scoped ? ' · scoped' : ''}`,
  keyUnknown: (what) => `No key "${what}" in this guild.`,
  keyAmbiguous: (what) => `Several keys are named "${what}" – pick one from the suggestions.`,
  keyConfirm: (name, last4) => `Really delete key "${name}" (…${last4})? Scripts using it lose access at once.`,
  keyDeleted: (name) => `Key "${name}" is deleted.`,
  keyGone: 'The key was deleted already.',
  cancelled: 'Cancelled – nothing deleted.',
  delete: 'Delete', cancel: 'Cancel',
  statsOff: 'Statistics are switched off in this guild.',
  noStatsRight: 'Only members with the capability stats.leaderboard.view, admins of this guild and whoever has "Manage Server" may post the duty-time leaderboard.',
  statsTitle: (guild) => `Duty-time leaderboard · ${guild}`,
  statsPeriod: { daily: 'Day', weekly: 'Week', monthly: 'Month', alltime: 'All time' },
  statsRange: (first, last) => (first === null ? `until ${last}` : first === last ? first : `${first} – ${last}`),
  statsTotals: (duration, people, shifts) => `**${duration}** by ${people} ${people === 1 ? 'person' : 'people'} · ${shifts} ${shifts === 1 ? 'shift' : 'shifts'}`,
  statsPrevious: (range, duration, pct) => `Period before (${range}): ${duration}${pct === null ? '' : ` · ${signed(pct, 'en')} %`}`,
  statsNobody: 'Nobody was on duty in this period.',
  statsMore: (n) => `… and ${n} more`,
  statsAskedBy: (name) => `Requested by ${name}`,
  statsNoChart: 'The chart could not be drawn just now (the server is busy or an error occurred). The leaderboard above is correct; try again in a moment for the chart.',
  statsFailed: 'The duty-time leaderboard could not be made. Please try again; if it keeps failing, look at the server log.',
  statsDbDown: 'The duty-time leaderboard could not be made: the database cannot be reached right now. Please try again in a moment.',
  dbDown: 'The database cannot be reached right now. Please try again in a moment.',
  failed: 'That did not work. Please try again; if it keeps failing, look at the server log.',
};

export function textsFor(locale: string | null | undefined): Texts {
  return locale?.startsWith('en') ? en : de;
}
export type { Texts };
