import { texts } from '../../app/i18n.ts';

/** Strings of the sheet's alarm parts (units, close with release). */
export const alarmText = texts({
  alarm: 'Alarmieren', realarm: 'Erneut alarmieren', alarmAll: 'Alle alarmieren', assignAlarm: 'Zuweisen und alarmieren',
  alarmOf: (c: string) => `${c} alarmieren`, realarmOf: (c: string) => `${c} erneut alarmieren`,
  alarmed: (list: string) => `${list} alarmiert.`, alarmedAt: 'Alarmiert', ackAt: 'Quittiert', after: (s: string) => `nach ${s}`,
  waiting: (s: string) => `wartet auf Quittung (${s})`, unacked: (s: string) => `nicht quittiert seit ${s}`, notAlarmed: 'zugewiesen, nicht alarmiert',
  elsewhere: (units: string, sheets: string) => `${units} ${units.includes(',') ? 'sind' : 'ist'} noch in Einsatz ${sheets}. Trotzdem hierher alarmieren? Dort ${units.includes(',') ? 'werden sie' : 'wird die Einheit'} abgezogen.`,
  force: 'Ja, hierher alarmieren', cancel: 'Abbrechen', noAlarmStatus: 'Der Statuskatalog hat keinen Alarmstatus: unter Einstellungen einen Status mit „Alarm“ anlegen (z. B. A „Alarmiert“).',
  release: 'Einheiten freigeben', releaseHint: 'Welche Einheiten sind wieder frei? Sie bleiben im Einsatzblatt vermerkt.', releaseTo: 'Status',
  closeOnly: 'Nur abschließen', closeRelease: (n: number) => (n ? `Abschließen und ${n === 1 ? '1 Einheit' : `${n} Einheiten`} freigeben` : 'Abschließen'),
  releasedOk: (n: number, list: string) => `Einsatz ${n} abgeschlossen; frei: ${list}.`, releaseFailed: (list: string) => `Status nicht gesetzt: ${list}`,
  onOther: (n: number) => `jetzt in Einsatz ${n}`,
}, {
  alarm: 'Alarm', realarm: 'Alarm again', alarmAll: 'Alarm all', assignAlarm: 'Assign and alarm',
  alarmOf: (c: string) => `Alarm ${c}`, realarmOf: (c: string) => `Alarm ${c} again`,
  alarmed: (list: string) => `${list} alarmed.`, alarmedAt: 'Alarmed', ackAt: 'Acknowledged', after: (s: string) => `after ${s}`,
  waiting: (s: string) => `awaiting acknowledgement (${s})`, unacked: (s: string) => `not acknowledged for ${s}`, notAlarmed: 'assigned, not alarmed',
  elsewhere: (units: string, sheets: string) => `${units} ${units.includes(',') ? 'are' : 'is'} still on incident ${sheets}. Alarm for this one anyway? ${units.includes(',') ? 'They are' : 'It is'} taken off there.`,
  force: 'Yes, alarm for this one', cancel: 'Cancel', noAlarmStatus: 'The status catalogue has no alarm status: add one marked “alarm” in Settings (e.g. A “Alarmed”).',
  release: 'Release units', releaseHint: 'Which units are free again? They stay recorded on the sheet.', releaseTo: 'Status',
  closeOnly: 'Close only', closeRelease: (n: number) => (n ? `Close and release ${n === 1 ? '1 unit' : `${n} units`}` : 'Close'),
  releasedOk: (n: number, list: string) => `Incident ${n} closed; free: ${list}.`, releaseFailed: (list: string) => `Status not set: ${list}`,
  onOther: (n: number) => `now on incident ${n}`,
});
