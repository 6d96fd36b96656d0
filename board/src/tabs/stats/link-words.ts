import { texts } from '../../app/i18n.ts';
import { dayLong, monthText, spanText } from './format.ts';
import type { PeriodName } from './words.ts';

export const chartNames = ['leaderboard/bars', 'leaderboard/share', 'leaderboard/trend', 'user/shifts', 'user/trend'] as const;
export type ChartName = (typeof chartNames)[number];

/** Strings of the public chart links (create, the one sight of the URL, list, revoke). */
export const linkText = texts({
  title: 'Öffentliche Diagramm-Links',
  intro: 'Ein Link zeigt ein Diagramm ohne Anmeldung – zum Beispiel in einem Discord-Kanal. Das Bild ist bei jedem Abruf aktuell. Wer den Link hat, sieht das Diagramm; widerrufen beendet das sofort.',
  newLink: 'Neuer Link', chart: 'Diagramm', person: 'Person', choosePerson: 'Person wählen …', noPeople: 'Noch niemand hat Dienstzeit.',
  label: 'Bezeichnung', labelHint: 'z. B. Wochen-Rangliste #dienstzeiten', colours: 'Farben', dark: 'Dunkel (wie Discord)', light: 'Hell',
  charts: {
    'leaderboard/bars': 'Rangliste – Balken', 'leaderboard/share': 'Rangliste – Anteile', 'leaderboard/trend': 'Rangliste – Verlauf',
    'user/shifts': 'Person – Dienstzeit', 'user/trend': 'Person – Verlauf',
  } as Record<ChartName, string>,
  uses: 'Zeitraum und Filter kommen aus der Auswahl oben:',
  rolling: (p: string) => `${p}, immer aktuell`, weekOf: (d: string) => `Woche mit dem ${d}`,
  allTime: 'Gesamt, immer bis heute', people: (n: number) => `${n} Personen`, rank: (r: string) => `Rang ${r}`,
  create: 'Link erstellen', created: 'Link erstellt.', needPerson: 'Wähle die Person für dieses Diagramm.',
  createdTitle: (label: string) => (label ? `Dein neuer Link „${label}“` : 'Dein neuer Diagramm-Link'),
  once: 'Kopiere ihn jetzt: Er wird nur dieses eine Mal angezeigt. In der Liste stehen danach nur noch seine letzten 4 Zeichen.',
  url: 'Link zum Diagramm', copy: 'Kopieren', copied: 'In die Zwischenablage kopiert.', copyFailed: 'Kopieren ging nicht – markiere den Link und kopiere ihn selbst.',
  done: 'Ich habe ihn kopiert', preview: 'Vorschau',
  list: 'Aktive Links', none: 'Noch keine Links.', unnamed: 'ohne Bezeichnung', tokenEnd: 'Die letzten 4 Zeichen des Links',
  createdAt: 'Erstellt', lastFetched: 'Zuletzt abgerufen', fetches: 'Abrufe', never: 'nie',
  revoke: 'Widerrufen', really: 'Wirklich widerrufen?', yes: 'Ja, widerrufen', cancel: 'Abbrechen',
  revoked: (label: string) => `Link „${label}“ widerrufen: Er zeigt ab sofort nichts mehr.`,
  periods: { daily: 'Tag', weekly: 'Woche', monthly: 'Monat', alltime: 'Gesamt', custom: 'Zeitraum' } as Record<PeriodName, string>,
}, {
  title: 'Public chart links',
  intro: 'A link shows a chart without signing in – in a Discord channel, for example. The image is current on every fetch. Whoever has the link sees the chart; revoking ends that at once.',
  newLink: 'New link', chart: 'Chart', person: 'Person', choosePerson: 'Choose a person …', noPeople: 'Nobody has duty time yet.',
  label: 'Label', labelHint: 'e.g. weekly leaderboard #duty-hours', colours: 'Colours', dark: 'Dark (like Discord)', light: 'Light',
  charts: {
    'leaderboard/bars': 'Leaderboard – bars', 'leaderboard/share': 'Leaderboard – shares', 'leaderboard/trend': 'Leaderboard – trend',
    'user/shifts': 'Person – duty time', 'user/trend': 'Person – trend',
  },
  uses: 'Period and filters come from the choice above:',
  rolling: (p: string) => `${p}, always current`, weekOf: (d: string) => `Week of ${d}`,
  allTime: 'All time, always up to today', people: (n: number) => `${n} people`, rank: (r: string) => `rank ${r}`,
  create: 'Create link', created: 'Link created.', needPerson: 'Choose the person for this chart.',
  createdTitle: (label: string) => (label ? `Your new link “${label}”` : 'Your new chart link'),
  once: 'Copy it now: it is shown this one time only. Afterwards the list shows only its last 4 characters.',
  url: 'Chart link', copy: 'Copy', copied: 'Copied to the clipboard.', copyFailed: 'Copying failed – select the link and copy it yourself.',
  done: 'I have copied it', preview: 'Preview',
  list: 'Working links', none: 'No links yet.', unnamed: 'no label', tokenEnd: 'The link\'s last 4 characters',
  createdAt: 'Created', lastFetched: 'Last fetched', fetches: 'Fetches', never: 'never',
  revoke: 'Revoke', really: 'Really revoke?', yes: 'Yes, revoke', cancel: 'Cancel',
  revoked: (label: string) => `Link “${label}” revoked: it shows nothing from now on.`,
  periods: { daily: 'Day', weekly: 'Week', monthly: 'Month', alltime: 'All time', custom: 'Range' },
});

/** What a link's stored parameters mean: "Woche, immer die aktuelle · 25 Personen · Rang leitstelle". */
export function describeParams(params: Record<string, unknown>): string {
  const t = linkText();
  const period = (params.period as PeriodName | undefined) ?? 'weekly';
  const parts: string[] = [];
  if (period === 'alltime') parts.push(t.allTime);
  else if (period === 'custom') parts.push(spanText(String(params.from), String(params.to)));
  else if (typeof params.date === 'string') {
    parts.push(period === 'daily' ? dayLong(params.date) : period === 'weekly' ? t.weekOf(dayLong(params.date)) : monthText(params.date));
  }
  else parts.push(t.rolling(t.periods[period]));
  if (typeof params.limit === 'number') parts.push(t.people(params.limit));
  if (typeof params.rank === 'string') parts.push(t.rank(params.rank));
  if (typeof params.orgUnit === 'string') parts.push(params.orgUnit);
  if (params.theme === 'light') parts.push(t.light);
  return parts.join(' · ');
}
