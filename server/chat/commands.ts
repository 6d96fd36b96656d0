/**
 * The bot's slash commands, registered for the application (a bulk overwrite at every connect, so
 * a new version replaces the old set). Names and descriptions are German, with English
 * localizations; Discord always sends the default (German) names to the bot.
 */

const en = (text: string) => ({ 'en-US': text, 'en-GB': text });

export const commandNames = { apikey: 'apikey', login: 'login', panel: 'panel' } as const;
export const apikeySub = { create: 'erstellen', list: 'liste', delete: 'löschen' } as const;

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
];
