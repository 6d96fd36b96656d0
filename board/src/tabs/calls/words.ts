import { texts } from '../../app/i18n.ts';
import type { DismissPreset } from '../../../../contract/call-triage.ts';

export type CallKind = 'notruf' | 'panik' | 'alarm' | 'hinweis';
/** Panic first, then the order the game's kinds are usually read in. */
export const callKinds: CallKind[] = ['panik', 'notruf', 'alarm', 'hinweis'];

/** Every string of the calls tab. */
export const callText = texts({
  title: 'Meldungen aus dem Spiel', all: 'Alle', filter: 'Nach Art filtern',
  kinds: { notruf: 'Notruf', panik: 'Panik', alarm: 'Alarm', hinweis: 'Hinweis' } as Record<CallKind, string>,
  priority: 'Priorität', prio: (p: number) => `P${p}`, prioLong: (p: number) => `Priorität ${p} (${p === 1 ? 'hoch' : p === 2 ? 'normal' : 'niedrig'})`,
  reports: (n: number) => `${n}× gemeldet`, age: 'Wartet seit', underMinute: '< 1 min', caller: 'Anrufer', source: 'Quelle', fresh: 'Neu',
  take: 'Übernehmen', taking: 'Übernehme …', takeLabel: (title: string) => `Meldung „${title}“ übernehmen`,
  none: 'Keine offenen Meldungen. Neue Meldungen aus dem Spiel erscheinen hier sofort, mit einem kurzen Ton.',
  noneOfKind: 'Keine offenen Meldungen dieser Art.', noRight: 'Meldungen sehen Ränge mit dem Recht „Leitstelle und Meldungen sehen“.',
  viewOnly: 'Übernehmen, anhängen und verwerfen dürfen Ränge mit dem Recht „die Leitstelle führen“.',
  offDuty: 'Du bist außer Dienst. Stemple dich ein, um Meldungen zu bearbeiten.', toClock: 'Zur Stempeluhr', dismiss: 'Schließen',
  failed: 'Nicht möglich:',
  technical: (id: string) => `Kennung im Spiel: ${id}`,
  select: (title: string) => `Meldung „${title}“ auswählen`, selected: (n: number) => `${n} ausgewählt`,
  merge: 'Zusammen übernehmen', merging: 'Übernehme …', mergeHint: 'Wähle mindestens zwei Meldungen aus.', clearSelection: 'Auswahl aufheben',
  selection: 'Ausgewählte Meldungen',
  discard: 'Verwerfen', discardLabel: (title: string) => `Meldung „${title}“ verwerfen`, discardTitle: 'Warum verwerfen?',
  presets: { Fehlalarm: 'Fehlalarm', Doppelt: 'Doppelt', Erledigt: 'Erledigt' } as Record<DismissPreset, string>,
  ownReason: 'Eigener Grund', ownReasonPlaceholder: 'Eigener Grund, z. B. Anrufer hat sich verwählt', discardOwn: 'Mit diesem Grund verwerfen',
  discarded: (title: string, reason: string) => `„${title}“ verworfen: ${reason}.`,
  attach: 'Anhängen', attachLabel: (title: string) => `Meldung „${title}“ an einen Einsatz anhängen`, attachTitle: 'An welchen offenen Einsatz?',
  attachTo: 'Einsatz', attachGo: 'Anhängen', noOpenSheets: 'Kein offener Einsatz. Übernimm die Meldung, um einen anzulegen.',
  sheetOption: (n: number, keyword: string) => `${n} – ${keyword}`, loadingSheets: 'Lade Einsätze …',
  attached: (title: string, n: number) => `„${title}“ an Einsatz ${n} angehängt.`, toSheet: 'Zum Einsatz', cancel: 'Abbrechen',
  linkedTitle: 'Meldungen aus dem Spiel', linkedMadeOf: 'Ursprung', linkedAttached: 'angehängt', linkedNone: 'Keine Meldungen aus dem Spiel.',
  status: { open: 'offen', taken: 'übernommen', resolved: 'vom Spiel abgeschlossen', dismissed: 'verworfen' } as Record<string, string>,
}, {
  title: 'Calls from the game', all: 'All', filter: 'Filter by kind',
  kinds: { notruf: 'Emergency', panik: 'Panic', alarm: 'Alarm', hinweis: 'Tip' } as Record<CallKind, string>,
  priority: 'Priority', prio: (p: number) => `P${p}`, prioLong: (p: number) => `Priority ${p} (${p === 1 ? 'high' : p === 2 ? 'normal' : 'low'})`,
  reports: (n: number) => `reported ${n}×`, age: 'Waiting since', underMinute: '< 1 min', caller: 'Caller', source: 'Source', fresh: 'New',
  take: 'Take', taking: 'Taking …', takeLabel: (title: string) => `Take call “${title}”`,
  none: 'No open calls. New calls from the game appear here at once, with a short tone.',
  noneOfKind: 'No open calls of this kind.', noRight: 'Calls are shown to ranks with the right to “see dispatch and calls”.',
  viewOnly: 'Ranks with the right to “run dispatch” can take, attach and dismiss calls.',
  offDuty: 'You are off duty. Clock in to work calls.', toClock: 'To the time clock', dismiss: 'Close',
  failed: 'Not possible:',
  technical: (id: string) => `Game id: ${id}`,
  select: (title: string) => `Select call “${title}”`, selected: (n: number) => `${n} selected`,
  merge: 'Take together', merging: 'Taking …', mergeHint: 'Select at least two calls.', clearSelection: 'Clear selection',
  selection: 'Selected calls',
  discard: 'Dismiss', discardLabel: (title: string) => `Dismiss call “${title}”`, discardTitle: 'Why dismiss it?',
  presets: { Fehlalarm: 'False alarm', Doppelt: 'Duplicate', Erledigt: 'Done' } as Record<DismissPreset, string>,
  ownReason: 'Own reason', ownReasonPlaceholder: 'Own reason, e.g. caller dialled the wrong number', discardOwn: 'Dismiss with this reason',
  discarded: (title: string, reason: string) => `“${title}” dismissed: ${reason}.`,
  attach: 'Attach', attachLabel: (title: string) => `Attach call “${title}” to an incident`, attachTitle: 'To which open incident?',
  attachTo: 'Incident', attachGo: 'Attach', noOpenSheets: 'No open incident. Take the call to open one.',
  sheetOption: (n: number, keyword: string) => `${n} – ${keyword}`, loadingSheets: 'Loading incidents …',
  attached: (title: string, n: number) => `“${title}” attached to incident ${n}.`, toSheet: 'To the incident', cancel: 'Cancel',
  linkedTitle: 'Calls from the game', linkedMadeOf: 'origin', linkedAttached: 'attached', linkedNone: 'No calls from the game.',
  status: { open: 'open', taken: 'taken', resolved: 'resolved by the game', dismissed: 'dismissed' } as Record<string, string>,
});
