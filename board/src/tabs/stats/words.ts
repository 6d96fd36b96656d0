import { messageOf } from '../../app/api.ts';
import { lang, texts } from '../../app/i18n.ts';

export type PeriodName = 'daily' | 'weekly' | 'monthly' | 'alltime' | 'custom';
export type Section = 'board' | 'me' | 'coverage' | 'incidents' | 'links';

/** Strings of the Statistik tab: sections, the period bar, the leaderboard and a person's statistics. */
export const statsText = texts({
  sections: { board: 'Rangliste', me: 'Meine Statistik', coverage: 'Dienstabdeckung', incidents: 'Einsatzzahlen', links: 'Diagramm-Links' } as Record<Section, string>,
  sectionsLabel: 'Statistik-Bereiche',
  periods: { daily: 'Tag', weekly: 'Woche', monthly: 'Monat', alltime: 'Gesamt', custom: 'Zeitraum' } as Record<PeriodName, string>,
  periodLabel: 'Zeitraum', date: 'Datum', from: 'Von', to: 'Bis', today: 'Heute', current: 'Aktuell',
  prev: 'Vorheriger Zeitraum', next: 'Nächster Zeitraum',
  week: (n: number, span: string) => `KW ${n} · ${span}`, days: (n: number) => (n === 1 ? '1 Tag' : `${n} Tage`), allUntil: (day: string) => `Alle Dienstzeiten bis ${day}`,
  rank: 'Rang', allRanks: 'Alle Ränge', orgUnit: 'Organisationseinheit', allOrgUnits: 'Alle', limit: 'Zeilen',
  loading: 'Lädt …', retry: 'Erneut laden', updated: (time: string) => `Stand ${time} Uhr`,
  totalTime: 'Dienstzeit gesamt', shifts: 'Schichten', active: 'Aktive Personen', perPerson: 'Ø je Person',
  vs: { daily: 'ggü. Vortag', weekly: 'ggü. Vorwoche', monthly: 'ggü. Vormonat', custom: 'ggü. vorherigem Zeitraum', alltime: '' } as Record<PeriodName, string>,
  noBefore: 'vorher keine Dienstzeit', previousWas: (d: string) => `vorher ${d}`, up: 'mehr', down: 'weniger', same: 'unverändert',
  place: 'Platz', badge: 'Dienstnr.', name: 'Name', time: 'Dienstzeit', shiftCount: 'Schichten',
  empty: 'Keine Dienstzeiten im Zeitraum.',
  emptyHint: 'Sobald jemand im Zeitraum eingestempelt war, erscheint er hier.',
  showing: (n: number, total: number) => (n < total ? `Die ${n} mit der meisten Dienstzeit von ${total} aktiven Personen.` : `Alle ${total} aktiven Personen.`),
  openPerson: (name: string) => `Statistik von ${name} öffnen`,
  charts: { bars: 'Balken', share: 'Anteile', trend: 'Verlauf', shifts: 'Dienstzeit' },
  chartKind: 'Diagramm',
  chartAlt: {
    bars: 'Diagramm: Dienstzeit je Person im Zeitraum', share: 'Diagramm: Anteil jeder Person an der Dienstzeit',
    trend: 'Diagramm: Dienstzeit im Verlauf, verglichen mit dem vorherigen Zeitraum', shifts: 'Diagramm: Dienstzeit im Zeitraum',
  },
  chartFailed: 'Das Diagramm konnte nicht geladen werden.', openImage: 'Bild in voller Größe öffnen',
  back: 'Zurück zur Rangliste', onDutyNow: 'Im Dienst', average: 'Ø Schicht', longest: 'Längste Schicht',
  byWeekday: 'Nach Wochentag', weekdays: ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag', 'Sonntag'],
  shiftsTitle: 'Schichten im Zeitraum', clockIn: 'Beginn', clockOut: 'Ende', duration: 'Dauer', inPeriod: 'Davon im Zeitraum', status: 'Status',
  shiftStatus: { OPEN: 'Läuft', CLOSED: 'Beendet', AUTO_CLOSED: 'Automatisch beendet' } as Record<string, string>,
  showAll: (n: number) => `Alle ${n} Schichten zeigen`, truncated: 'Gezeigt werden die neuesten 1000 Schichten.',
  noShifts: 'Keine Schichten im Zeitraum.', running: 'läuft',
  notFound: 'Diese Person gibt es in dieser Wache nicht (mehr).',
  meMissing: 'Für dich gibt es in dieser Wache keinen Personaleintrag – frag die Wachleitung.',
}, {
  sections: { board: 'Leaderboard', me: 'My statistics', coverage: 'Coverage', incidents: 'Incident figures', links: 'Chart links' },
  sectionsLabel: 'Statistics sections',
  periods: { daily: 'Day', weekly: 'Week', monthly: 'Month', alltime: 'All time', custom: 'Range' },
  periodLabel: 'Period', date: 'Date', from: 'From', to: 'To', today: 'Today', current: 'Current',
  prev: 'Previous period', next: 'Next period',
  week: (n: number, span: string) => `Week ${n} · ${span}`, days: (n: number) => (n === 1 ? '1 day' : `${n} days`), allUntil: (day: string) => `All duty time up to ${day}`,
  rank: 'Rank', allRanks: 'All ranks', orgUnit: 'Organisation unit', allOrgUnits: 'All', limit: 'Rows',
  loading: 'Loading …', retry: 'Load again', updated: (time: string) => `As of ${time}`,
  totalTime: 'Total duty time', shifts: 'Shifts', active: 'Active people', perPerson: 'Avg. per person',
  vs: { daily: 'vs. the day before', weekly: 'vs. the week before', monthly: 'vs. the month before', custom: 'vs. the period before', alltime: '' },
  noBefore: 'no duty time before', previousWas: (d: string) => `before: ${d}`, up: 'more', down: 'less', same: 'unchanged',
  place: 'Place', badge: 'Badge', name: 'Name', time: 'Duty time', shiftCount: 'Shifts',
  empty: 'No duty time in this period.',
  emptyHint: 'Whoever was clocked in during the period appears here.',
  showing: (n: number, total: number) => (n < total ? `The ${n} with the most duty time of ${total} active people.` : `All ${total} active people.`),
  openPerson: (name: string) => `Open the statistics of ${name}`,
  charts: { bars: 'Bars', share: 'Shares', trend: 'Trend', shifts: 'Duty time' },
  chartKind: 'Chart',
  chartAlt: {
    bars: 'Chart: duty time per person in the period', share: 'Chart: each person\'s share of the duty time',
    trend: 'Chart: duty time over the period, compared with the period before', shifts: 'Chart: duty time in the period',
  },
  chartFailed: 'The chart could not be loaded.', openImage: 'Open the image at full size',
  back: 'Back to the leaderboard', onDutyNow: 'On duty', average: 'Avg. shift', longest: 'Longest shift',
  byWeekday: 'By weekday', weekdays: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
  shiftsTitle: 'Shifts in the period', clockIn: 'Start', clockOut: 'End', duration: 'Duration', inPeriod: 'In the period', status: 'Status',
  shiftStatus: { OPEN: 'Running', CLOSED: 'Ended', AUTO_CLOSED: 'Closed automatically' },
  showAll: (n: number) => `Show all ${n} shifts`, truncated: 'Showing the newest 1000 shifts.',
  noShifts: 'No shifts in this period.', running: 'running',
  notFound: 'This person is not (or no longer) in this station.',
  meMissing: 'You have no personnel entry in this station – ask your station\'s lead.',
});

/** Short weekday names, Monday first. */
export const weekdayShort = texts(['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So'], ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);

/**
 * The stats routes' own 400 messages (server/domains/stats/schema.ts) in German; anything else as
 * the board shows it. The server names where an issue lies first ("body: …", "from: …").
 */
const german: [RegExp, (...parts: string[]) => string][] = [
  [/^a custom period covers at most (\d+) days \(from (\S+) to (\S+) is (\d+)\)$/, (max, _from, _to, days) => `Ein Zeitraum umfasst höchstens ${max} Tage – gewählt sind ${days}. Wähle einen kürzeren Zeitraum.`],
  [/^from must not be after to$/, () => '„Von“ darf nicht nach „Bis“ liegen.'],
  [/^period=custom needs both from and to$/, () => 'Ein Zeitraum braucht „Von“ und „Bis“.'],
  [/^(date|from|to) must be a date YYYY-MM-DD/, (name) => `${name === 'from' ? '„Von“' : name === 'to' ? '„Bis“' : 'Das Datum'} ist kein gültiger Tag.`],
  [/^minOnDuty must be a whole number from (\d+) to (\d+)$/, (min, max) => `Die Mindestbesetzung muss eine ganze Zahl von ${min} bis ${max} sein.`],
  [/^label has at most (\d+) characters$/, (n) => `Die Bezeichnung hat höchstens ${n} Zeichen.`],
];

export function statsMessage(err: unknown): string {
  const message = messageOf(err).replace(/^body: /, '');
  if (lang.peek() !== 'de') return message;
  for (const [pattern, say] of german) {
    const m = pattern.exec(message.replace(/^[\w.]+: /, ''));
    if (m) return say(...m.slice(1));
  }
  return message;
}
