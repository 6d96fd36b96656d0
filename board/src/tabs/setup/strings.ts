import { texts } from '../../app/i18n.ts';

export const setupText = texts({
  title: 'Einrichtung', intro: 'Eine neue Wache in wenigen Minuten startklar: Wähle eine Vorlage, sieh dir an, was sie anlegt, und richte die Bereiche ein, die noch leer sind. Bereiche mit Inhalt bleiben unverändert.',
  newGuild: 'Diese Wache ist noch leer. Der Assistent legt Dienstgrade, Fahrzeugstatus, Fahrzeuge und Briefköpfe an.',
  template: '1. Vorlage wählen', areas: '2. Bereiche wählen', run: 'Einrichten', running: 'Wird eingerichtet …',
  creates: (n: number) => (n === 1 ? 'legt 1 Eintrag an' : `legt ${n} Einträge an`), show: 'Anzeigen, was angelegt wird',
  filled: 'bereits eingerichtet', loading: 'Lädt …',
  done: 'Alles eingerichtet – hier ist nichts mehr zu tun. Änderungen machst du in den einzelnen Bereichen.',
  result: 'Ergebnis', created: (n: number) => (n === 1 ? '1 angelegt' : `${n} angelegt`),
  skipped: (why: string) => `übersprungen: ${why === 'not empty' ? 'nicht leer' : why === 'the status catalogue is empty' ? 'es gibt keinen Fahrzeugstatus' : why}`,
  nothing: 'Nichts angelegt: die gewählten Bereiche waren schon eingerichtet.',
  next: 'Weiter: Logo hochladen und Briefkopf anpassen', none: 'Wähle mindestens einen Bereich.',
}, {
  title: 'Setup', intro: 'A new station ready in minutes: choose a template, see what it creates, and set up the areas that are still empty. Areas with content are left as they are.',
  newGuild: 'This station is still empty. The wizard creates ranks, unit statuses, units and letterheads.',
  template: '1. Choose a template', areas: '2. Choose areas', run: 'Set up', running: 'Setting up …',
  creates: (n: number) => (n === 1 ? 'creates 1 entry' : `creates ${n} entries`), show: 'Show what is created',
  filled: 'already set up', loading: 'Loading …',
  done: 'Everything is set up – nothing left to do here. Make changes in each area.',
  result: 'Result', created: (n: number) => `${n} created`,
  skipped: (why: string) => `skipped: ${why}`,
  nothing: 'Nothing created: the chosen areas were already set up.',
  next: 'Next: upload a logo and adjust the letterhead', none: 'Choose at least one area.',
});
