import type { Capability } from '../../../contract/capabilities.ts';
import { texts } from './i18n.ts';

type Words = Record<Capability, string>;

/** Rank capabilities in words, for sentences people read (never the raw names), in each board language. */
export const capabilityWords: { de: Words; en: Words } = {
  de: {
    'settings.manage': 'Einstellungen verwalten',
    'timeclock.own.use': 'selbst stempeln',
    'timeclock.manage': 'die Stempeluhr für andere bedienen',
    'dispatch.view': 'Leitstelle und Meldungen sehen',
    'dispatch.manage': 'die Leitstelle führen',
    'units.manage': 'Einheiten verwalten',
    'incidents.manage': 'Einsätze bearbeiten',
    'personal.sheet.view': 'Personalakten sehen',
    'personal.sheet.edit': 'Personal und Ränge zuweisen',
    'ranks.manage': 'Ränge verwalten',
    'stats.leaderboard.view': 'die Statistik sehen',
    'documents.letterhead.view': 'Briefköpfe sehen',
    'documents.letterhead.create': 'Briefköpfe anlegen',
    'documents.letterhead.edit': 'Briefköpfe bearbeiten',
    'documents.letterhead.delete': 'Briefköpfe löschen',
    'medic.files.view': 'Patientenakten sehen',
    'medic.files.manage': 'Patientenakten bearbeiten',
  },
  en: {
    'settings.manage': 'manage settings',
    'timeclock.own.use': 'clock in and out',
    'timeclock.manage': 'run the time clock for others',
    'dispatch.view': 'see dispatch and calls',
    'dispatch.manage': 'run dispatch',
    'units.manage': 'manage units',
    'incidents.manage': 'edit incidents',
    'personal.sheet.view': 'see personnel files',
    'personal.sheet.edit': 'edit personnel and assign ranks',
    'ranks.manage': 'manage ranks',
    'stats.leaderboard.view': 'see statistics',
    'documents.letterhead.view': 'see letterheads',
    'documents.letterhead.create': 'create letterheads',
    'documents.letterhead.edit': 'edit letterheads',
    'documents.letterhead.delete': 'delete letterheads',
    'medic.files.view': 'see patient files',
    'medic.files.manage': 'edit patient files',
  },
};

/** The words in the board's language. */
export const capabilityText = texts(capabilityWords.de, capabilityWords.en);
