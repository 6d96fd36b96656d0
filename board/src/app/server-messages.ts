/**
 * The server speaks English (`{ "error": … }`); a German board shows the messages people meet every
 * evening in German. Each rule matches one message of the server (server/domains/*), with its
 * variable parts; anything else is shown as the server wrote it.
 */
const german: [RegExp, (...parts: string[]) => string][] = [
  [/^you are not clocked in$/, () => 'Du bist nicht eingestempelt.'],
  [/^you are off duty: clock in before taking a call$/, () => 'Du bist außer Dienst: Stemple dich ein, bevor du eine Meldung übernimmst.'],
  [/^(.+) is not clocked in$/, (who) => `${who} ist nicht eingestempelt.`],
  [/^(.+) is already clocked in$/, (who) => `${who} ist bereits eingestempelt.`],
  [/^you do not occupy unit (.+)$/, (unit) => `Du besetzt ${unit} nicht.`],
  [/^you are not in a unit$/, () => 'Du besetzt keine Einheit.'],
  [/^you are not on stand-by$/, () => 'Du bist nicht in Bereitschaft.'],
  [/^you hold no dispatcher slot$/, () => 'Du hast keinen Disponentenplatz.'],
  [/^slot (\d+) is taken by (.+)$/, (slot, who) => `Platz ${slot} ist von ${who} besetzt.`],
  [/^all (\d+) dispatcher slots are taken$/, (n) => `Alle ${n} Disponentenplätze sind besetzt.`],
  [/^call (.+) was already taken(?: \(incident sheet (\d+)\))?$/, (id, sheet) => `Die Meldung ${id} wurde bereits übernommen${sheet ? ` (Einsatzblatt ${sheet})` : ''}.`],
  [/^incident sheet (\d+) is closed$/, (n) => `Einsatzblatt ${n} ist abgeschlossen.`],
  [/^(.+) is occupied; its members must leave first$/, (unit) => `${unit} ist besetzt; die Besatzung muss zuerst aussteigen.`],
  [/^your rank lacks the capability (.+)$/, (cap) => `Deinem Rang fehlt die Berechtigung „${cap}“.`],
  [/^module "(.+)" is switched off for this guild$/, (m) => `Das Modul „${m}“ ist für diese Wache ausgeschaltet.`],
  [/^database unavailable; retry shortly$/, () => 'Die Datenbank ist gerade nicht erreichbar; versuch es gleich noch einmal.'],
  [/^status (.+) is in use by (.+)$/, (code, units) => `Status ${code} wird noch verwendet von ${units}.`],
];

/** `message` in `lang`: German where a rule knows the message, else unchanged. */
export function localMessage(message: string, lang: 'de' | 'en'): string {
  if (lang !== 'de') return message;
  for (const [pattern, say] of german) {
    const m = pattern.exec(message);
    if (m) return say(...m.slice(1));
  }
  return message;
}
