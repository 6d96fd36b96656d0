/**
 * The bot's slash commands, registered for the application (a bulk overwrite at every connect, so
 * a new version replaces the old set). Names and descriptions are German, with English
 * localizations; Discord always sends the default (German) names to the bot.
 */

const en = (text: string) => ({ 'en-US': text, 'en-GB': text });

export const commandNames = { apikey: 'apikey', login: 'login', panel: 'panel', stats: 'statistik' } as const;
export const apikeySub = { create: 'erstellen', list: 'liste', delete: 'löschen' } as const;
/** Options of /statistik; their values are the period and chart names of the stats routes. */
export const statsOptions = { period: 'zeitraum', count: 'anzahl', chart: 'diagramm' } as const;
export const statsDefaults = { period: 'weekly', count: 10, chart: 'bars' } as const;
/** At most 25 people: an embed lists each of them on a line. */
export const STATS_MAX_COUNT = 25;

export const commandDefinitions = [
  {
    name: commandNames.apikey, type: 1, contexts: [0], integration_types: [0],
    description: 'API-Schlüssel dieser Wache verwalten', description_localizations: en('Manage this guild\'s API keys'),
    options: [
      {
        type: 1, name: apikeySub.create, name_localizations: en('create'),
        description: 'Neuen Schlüssel mit vollem Zugriff erstellen (wird einmal angezeigt)', description_localizations: en('Create a key with full access (shown once)'),
      },
      {
        type: 1, name: apikeySub.list, name_localizations: en('list'),
        description: 'Alle Schlüssel anzeigen', description_localizations: en('List all keys'),
      },
      {
        type: 1, name: apikeySub.delete, name_localizations: en('delete'),
        description: 'Einen Schlüssel sofort widerrufen', description_localizations: en('Revoke a key at once'),
        options: [{
          type: 3, name: 'schluessel', name_localizations: en('key'), required: true, autocomplete: true,
          description: 'Name des Schlüssels', description_localizations: en('Name of the key'),
        }],
      },
    ],
  },
  {
    name: commandNames.login, type: 1, contexts: [0], integration_types: [0],
    description: 'Einmal-Link zum Leitstellen-Board (nur für dich)', description_localizations: en('One-time link to the dispatch board (only for you)'),
  },
  {
    name: commandNames.panel, type: 1, contexts: [0], integration_types: [0],
    description: 'Stempeluhr-Panel in diesem Kanal posten', description_localizations: en('Post the time-clock panel in this channel'),
    options: [{
      type: 3, name: 'sprache', name_localizations: en('language'), required: false,
      description: 'Sprache des Panels', description_localizations: en('Language of the panel'),
      choices: [{ name: 'Deutsch', value: 'de' }, { name: 'English', value: 'en' }],
    }],
  },
  {
    name: commandNames.stats, name_localizations: en('stats'), type: 1, contexts: [0], integration_types: [0],
    description: 'Dienstzeit-Rangliste mit Diagramm in diesem Kanal posten', description_localizations: en('Post the duty-time leaderboard with a chart in this channel'),
    options: [
      {
        type: 3, name: statsOptions.period, name_localizations: en('period'), required: false,
        description: 'Der laufende Tag, die laufende Woche (Standard), der Monat oder alles', description_localizations: en('The current day, week (default), month, or all time'),
        choices: [
          { name: 'Tag', name_localizations: en('Day'), value: 'daily' },
          { name: 'Woche', name_localizations: en('Week'), value: 'weekly' },
          { name: 'Monat', name_localizations: en('Month'), value: 'monthly' },
          { name: 'Gesamt', name_localizations: en('All time'), value: 'alltime' },
        ],
      },
      {
        type: 4, name: statsOptions.count, name_localizations: en('count'), required: false, min_value: 1, max_value: STATS_MAX_COUNT,
        description: 'Wie viele Personen die Rangliste zeigt (1–25, Standard 10)', description_localizations: en('How many people the leaderboard shows (1–25, default 10)'),
      },
      {
        type: 3, name: statsOptions.chart, name_localizations: en('chart'), required: false,
        description: 'Das Diagramm: Balken (Standard), Anteil oder Verlauf', description_localizations: en('The chart: bars (default), share or trend'),
        choices: [
          { name: 'Balken', name_localizations: en('Bars'), value: 'bars' },
          { name: 'Anteil', name_localizations: en('Share'), value: 'share' },
          { name: 'Verlauf', name_localizations: en('Trend'), value: 'trend' },
        ],
      },
    ],
  },
];
