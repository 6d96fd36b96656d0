import type { ErrorReason } from '../../../contract/errors.ts';
import { isCapability } from '../../../contract/capabilities.ts';
import { capabilityWords } from './capability-labels.ts';

type Params = Readonly<Record<string, string | undefined>>;

/**
 * The server speaks English (`{ "error": … }`) and says why by a stable `reason` with the message's
 * variable parts in `params` (contract/errors.ts); a German board shows the reasons people meet
 * every evening in German. A rule answers undefined when a part it needs is missing: then, and for
 * every reason not listed, the server's message is shown as it wrote it.
 */
const german: Partial<Record<ErrorReason, (p: Params) => string | undefined>> = {
  not_clocked_in: (p) => (p.person ? `${p.person} ist nicht eingestempelt.` : 'Du bist nicht eingestempelt.'),
  off_duty: () => 'Du bist außer Dienst: Stemple dich ein, bevor du eine Meldung übernimmst.',
  already_clocked_in: (p) => p.person && `${p.person} ist bereits eingestempelt.`,
  not_your_unit: (p) => p.unit && `Du besetzt ${p.unit} nicht.`,
  not_in_unit: (p) => (p.person ? p.unit && `${p.person} ist nicht in ${p.unit}.` : 'Du besetzt keine Einheit.'),
  not_on_standby: (p) => (p.person ? `${p.person} ist nicht in Bereitschaft.` : 'Du bist nicht in Bereitschaft.'),
  no_dispatcher_slot: () => 'Du hast keinen Disponentenplatz.',
  slot_taken: (p) => p.slot && p.person && `Platz ${p.slot} ist von ${p.person} besetzt.`,
  all_slots_taken: (p) => p.slots && `Alle ${p.slots} Disponentenplätze sind besetzt.`,
  call_taken: (p) => p.call && `Die Meldung ${p.call} wurde bereits übernommen${p.sheet ? ` (Einsatzblatt ${p.sheet})` : ''}.`,
  call_dismissed: (p) => `Die Meldung wurde bereits verworfen${p.dismissReason ? ` (${p.dismissReason})` : ''}.`,
  call_resolved: () => 'Die Meldung wurde vom Spiel bereits abgeschlossen.',
  incident_closed: (p) => p.sheet && `Einsatzblatt ${p.sheet} ist abgeschlossen.`,
  unit_occupied: (p) => p.unit && `${p.unit} ist besetzt; die Besatzung muss zuerst aussteigen.`,
  capability_missing: (p) => p.capability && `Deinem Rang fehlt das Recht „${rightInWords(p.capability, 'de')}“.`,
  module_off: (p) => p.module && `Das Modul „${p.module}“ ist für diese Wache ausgeschaltet.`,
  database_unavailable: () => 'Die Datenbank ist gerade nicht erreichbar; versuch es gleich noch einmal.',
  status_in_use: (p) => p.status && p.units && `Status ${p.status} wird noch verwendet von ${p.units}.`,
  unit_type_in_use: (p) => p.type && `Fahrzeugtyp ${p.type} wird noch verwendet${p.units ? ` von ${p.units}` : ''}${p.units && p.keywords ? ' und' : ''}${p.keywords ? ` in den Stichwörtern ${p.keywords}` : ''}.`,
  unknown_unit_type: (p) => p.types && `Unbekannter Fahrzeugtyp: ${p.types}. Lege ihn zuerst unter Einstellungen → Alarm- und Ausrückeordnung an.`,
  map_calibration_invalid: (p) => (p.problem === 'spread' ? 'Die beiden Punkte liegen zu nah beieinander: Sie müssen sich im Bild waagrecht und senkrecht und im Spiel in X und Y unterscheiden. Wähle zwei Orte weit auseinander, diagonal.'
    : p.problem === 'outside' ? p.point && `Punkt ${p.point} liegt außerhalb des Bildes.`
    : p.problem === 'no_image' ? 'Die Karte hat kein Bild zum Kalibrieren.' : undefined),
  map_image_unknown: (p) => p.upload && `Das Bild ${p.upload} gibt es in dieser Wache nicht (mehr).`,
  postal_duplicate: (p) => p.code && `Die PLZ ${p.code} steht zweimal in der Datei; jede PLZ darf nur einmal vorkommen (Groß-/Kleinschreibung zählt nicht).`,
};

/** English where the server's message would name something only its API knows (a capability's raw name). */
const english: Partial<Record<ErrorReason, (p: Params) => string | undefined>> = {
  capability_missing: (p) => p.capability && `Your rank lacks the right to “${rightInWords(p.capability, 'en')}”.`,
};

/** A capability as people read it ("Leitstelle und Meldungen sehen"); one the board does not know stays as named. */
function rightInWords(capability: string, lang: 'de' | 'en'): string {
  if (!isCapability(capability)) return capability;
  return capabilityWords[lang][capability];
}

/** The error in `lang`: in words where the table knows its reason, else the server's `message`. */
export function localMessage(message: string, lang: 'de' | 'en', why?: { reason?: string; params?: Params }): string {
  if (!why?.reason) return message;
  return (lang === 'de' ? german : english)[why.reason as ErrorReason]?.(why.params ?? {}) || message;
}
