import { texts } from '../../app/i18n.ts';

/** Strings of the admin sections: Dienstabdeckung (heatmap, staffing minimum) and Einsatzzahlen. */
export const coverageText = texts({
  title: 'Dienstabdeckung',
  intro: 'Wie viele Personen im Schnitt im Dienst waren, je Wochentag und Stunde (Ortszeit der Wache). Rot markiert: Stunden, in denen die Besetzung mindestens einmal unter der Mindestbesetzung lag.',
  minimum: 'Mindestbesetzung', minimumHelp: 'Personen, die jederzeit im Dienst sein sollten (0: keine).', save: 'Speichern',
  saved: (n: number) => (n === 0 ? 'Keine Mindestbesetzung mehr.' : `Mindestbesetzung ${n} gespeichert.`),
  readOnly: (n: number) => (n === 0 ? 'Keine Mindestbesetzung festgelegt. Festlegen dürfen Ränge mit dem Recht „Einstellungen verwalten“.' : `Mindestbesetzung: ${n}. Ändern dürfen Ränge mit dem Recht „Einstellungen verwalten“.`),
  noMinimum: 'Keine Mindestbesetzung festgelegt: Unterbesetzung wird erst mit einem Minimum sichtbar.',
  hour: 'Uhr', weekday: 'Tag',
  cell: (day: string, hour: number, avg: string, max: number, under: number, hours: number) =>
    `${day}, ${hour}–${hour + 1} Uhr: im Schnitt ${avg} im Dienst, höchstens ${max}${under ? `; unterbesetzt in ${under} von ${hours} Stunden` : ''}`,
  unmeasured: (day: string, hour: number) => `${day}, ${hour}–${hour + 1} Uhr: noch nicht erreicht`,
  legendFew: 'niemand', legendMany: (n: string) => `Ø ${n}`, legendUnder: 'unterbesetzt',
  underHours: 'Unterbesetzte Stunden', runs: 'Unterbesetzte Phasen', staffHours: 'Personalstunden', peak: 'Höchste Besetzung',
  runsTitle: 'Unterbesetzte Phasen', runsNewest: 'neueste zuerst',
  lowest: (n: number) => `niedrigste Besetzung ${n}`, short: (d: string) => `${d} unter dem Minimum`,
  noRuns: 'Im Zeitraum lag die Besetzung nie unter dem Minimum.',
  truncated: (n: number) => `Gezeigt werden die ersten 500 von ${n} Phasen.`, more: (n: number) => `Alle ${n} zeigen`,
}, {
  title: 'Coverage',
  intro: 'How many people were on duty on average, per weekday and hour (the station\'s local time). Marked red: hours in which the head count fell below the staffing minimum at least once.',
  minimum: 'Staffing minimum', minimumHelp: 'People who should be on duty at every moment (0: none).', save: 'Save',
  saved: (n: number) => (n === 0 ? 'No staffing minimum any more.' : `Staffing minimum ${n} saved.`),
  readOnly: (n: number) => (n === 0 ? 'No staffing minimum set. Ranks with the right to “manage settings” can set one.' : `Staffing minimum: ${n}. Ranks with the right to “manage settings” can change it.`),
  noMinimum: 'No staffing minimum set: understaffing shows once there is a minimum.',
  hour: 'h', weekday: 'Day',
  cell: (day: string, hour: number, avg: string, max: number, under: number, hours: number) =>
    `${day}, ${hour}:00–${hour + 1}:00: ${avg} on duty on average, at most ${max}${under ? `; understaffed in ${under} of ${hours} hours` : ''}`,
  unmeasured: (day: string, hour: number) => `${day}, ${hour}:00–${hour + 1}:00: not reached yet`,
  legendFew: 'nobody', legendMany: (n: string) => `avg. ${n}`, legendUnder: 'understaffed',
  underHours: 'Understaffed hours', runs: 'Understaffed runs', staffHours: 'Staff hours', peak: 'Highest head count',
  runsTitle: 'Understaffed runs', runsNewest: 'newest first',
  lowest: (n: number) => `lowest head count ${n}`, short: (d: string) => `${d} below the minimum`,
  noRuns: 'The head count never fell below the minimum in this period.',
  truncated: (n: number) => `Showing the first 500 of ${n} runs.`, more: (n: number) => `Show all ${n}`,
});

export const einsatzText = texts({
  title: 'Einsatzzahlen', calls: 'Meldungen aus dem Spiel', reports: (n: string) => `${n} Meldungen samt Wiederholungen`,
  taken: 'Übernommen', takeMedian: 'Bis zur Übernahme (Median)', p90: (d: string) => `90 % innerhalb ${d}`,
  opened: 'Einsatzblätter eröffnet', closedOpen: (closed: string, open: string) => `${closed} abgeschlossen · ${open} jetzt offen`,
  durationMedian: 'Einsatzdauer (Median)', longest: (d: string) => `längster ${d}`, units: 'Beteiligte Einheiten', assignments: (n: number) => (n === 1 ? '1 Alarmierung' : `${n} Alarmierungen`),
  byKind: 'Meldungen nach Art', byPriority: 'Nach Priorität',
  kinds: { notruf: 'Notruf', panik: 'Panik', alarm: 'Alarm', hinweis: 'Hinweis' } as Record<string, string>,
  priorities: { 1: 'Hoch', 2: 'Normal', 3: 'Niedrig' } as Record<number, string>,
  outcome: 'Was aus den Meldungen wurde', outcomes: { taken: 'übernommen', resolved: 'vom Spiel erledigt', open: 'noch offen' },
  topUnits: 'Einheiten mit den meisten Einsätzen', incidents: (n: number) => (n === 1 ? '1 Einsatz' : `${n} Einsätze`),
  noUnits: 'Im Zeitraum wurde keine Einheit alarmiert.', none: '–',
  nothing: 'Keine Meldungen und keine Einsätze im Zeitraum.',
}, {
  title: 'Incident figures', calls: 'Calls from the game', reports: (n: string) => `${n} reports incl. repeats`,
  taken: 'Taken', takeMedian: 'Time to take (median)', p90: (d: string) => `90 % within ${d}`,
  opened: 'Incident sheets opened', closedOpen: (closed: string, open: string) => `${closed} closed · ${open} open now`,
  durationMedian: 'Incident duration (median)', longest: (d: string) => `longest ${d}`, units: 'Units involved', assignments: (n: number) => (n === 1 ? '1 alert' : `${n} alerts`),
  byKind: 'Calls by kind', byPriority: 'By priority',
  kinds: { notruf: 'Emergency', panik: 'Panic', alarm: 'Alarm', hinweis: 'Tip' },
  priorities: { 1: 'High', 2: 'Normal', 3: 'Low' },
  outcome: 'What became of the calls', outcomes: { taken: 'taken', resolved: 'resolved by the game', open: 'still open' },
  topUnits: 'Units with the most incidents', incidents: (n: number) => (n === 1 ? '1 incident' : `${n} incidents`),
  noUnits: 'No unit was alerted in this period.', none: '–',
  nothing: 'No calls and no incidents in this period.',
});
