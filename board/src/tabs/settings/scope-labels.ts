import { scopes, type Scope } from '../../../../contract/scopes.ts';
import { texts } from '../../app/i18n.ts';

export { scopes, type Scope };

/** What the dispatch game resource uses: every scope but the optional facility ones (as the server's self-check). */
export const gameResourceScopes: Scope[] = scopes.filter((s) => !s.startsWith('facility:'));

type Group = 'calls' | 'people' | 'game' | 'facility';
const groupOf = (s: Scope): Group =>
  s.startsWith('calls:') ? 'calls'
    : s.startsWith('facility:') ? 'facility'
      : s === 'employees:read' || s === 'ranks:personal.ranks_set' || s === 'capabilities:read' ? 'people'
        : 'game';

/** The scopes by group, each group in the order of spec §5.7. */
export const scopeGroups: { group: Group; scopes: Scope[] }[] = (['calls', 'game', 'people', 'facility'] as Group[])
  .map((group) => ({ group, scopes: scopes.filter((s) => groupOf(s) === group) }));

/** A one-line German (or English) meaning of each scope and group; the scope's own name is shown beside it. */
export const scopeText = texts<{ groups: Record<Group, string>; scopes: Record<Scope, string> }>({
  groups: { calls: 'Meldungen', game: 'Dienst im Spiel', people: 'Personal und Einrichtung', facility: 'Klinik (optional)' },
  scopes: {
    'calls:call.report': 'Meldungen aus dem Spiel senden und auflösen',
    'calls:read': 'Meldungen lesen (Wegpunkte für alarmierte Einheiten)',
    'employees:read': 'Nachsehen, wer ein Spieler ist (Personal, im Dienst)',
    'ranks:personal.ranks_set': 'Ränge im Spiel setzen',
    'timeclock:shift.ingame_clock': 'Im Spiel ein- und ausstempeln',
    'units:unit.ingame_status': 'Status der eigenen Einheit im Spiel setzen',
    'facility:queue.ingame_ticket': 'Wartemarken am Kiosk im Spiel',
    'sessions:ingame.tablet_login': 'Login-Links für das Tablet im Spiel',
    'facility:hospital.ingame_read': 'Klinik im Spiel lesen',
    'facility:hospital.ingame_layout': 'Klinik im Spiel einrichten',
    'capabilities:read': 'Eigene Einrichtung beim Start prüfen (Self-Check)',
    'units:unit.ingame_position': 'Positionen der Einheiten für die Karte senden',
  },
}, {
  groups: { calls: 'Calls', game: 'Duty in the game', people: 'People and setup', facility: 'Hospital (optional)' },
  scopes: {
    'calls:call.report': 'Report and resolve calls from the game',
    'calls:read': 'Read calls (waypoints for assigned units)',
    'employees:read': 'Look up who a player is (people, on duty)',
    'ranks:personal.ranks_set': 'Set in-game ranks',
    'timeclock:shift.ingame_clock': 'Clock in and out from the game',
    'units:unit.ingame_status': 'Set the own unit\'s status from the game',
    'facility:queue.ingame_ticket': 'Queue tickets at an in-game kiosk',
    'sessions:ingame.tablet_login': 'Login links for the in-game tablet',
    'facility:hospital.ingame_read': 'Read the in-game hospital',
    'facility:hospital.ingame_layout': 'Place the in-game hospital',
    'capabilities:read': 'Check its own setup at start (self-check)',
    'units:unit.ingame_position': 'Send the units\' positions for the map',
  },
});
