/** What the bot says, in German and English (by the Discord client's language of whoever asks). */

const ts = (d: Date, style: 't' | 'R' | 'f' = 't') => `<t:${Math.floor(d.getTime() / 1000)}:${style}>`;

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
  dbDown: 'The database cannot be reached right now. Please try again in a moment.',
  failed: 'That did not work. Please try again; if it keeps failing, look at the server log.',
};

export function textsFor(locale: string | null | undefined): Texts {
  return locale?.startsWith('en') ? en : de;
}
export type { Texts };
