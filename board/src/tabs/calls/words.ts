import { texts } from '../../app/i18n.ts';

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
  viewOnly: 'Übernehmen dürfen Ränge mit dem Recht „die Leitstelle führen“.',
  offDuty: 'Du bist außer Dienst. Stemple dich ein, um Meldungen zu übernehmen.', toClock: 'Zur Stempeluhr', dismiss: 'Schließen',
  takeFailed: 'Übernehmen nicht möglich:',
}, {
  title: 'Calls from the game', all: 'All', filter: 'Filter by kind',
  kinds: { notruf: 'Emergency', panik: 'Panic', alarm: 'Alarm', hinweis: 'Tip' } as Record<CallKind, string>,
  priority: 'Priority', prio: (p: number) => `P${p}`, prioLong: (p: number) => `Priority ${p} (${p === 1 ? 'high' : p === 2 ? 'normal' : 'low'})`,
  reports: (n: number) => `reported ${n}×`, age: 'Waiting since', underMinute: '< 1 min', caller: 'Caller', source: 'Source', fresh: 'New',
  take: 'Take', taking: 'Taking …', takeLabel: (title: string) => `Take call “${title}”`,
  none: 'No open calls. New calls from the game appear here at once, with a short tone.',
  noneOfKind: 'No open calls of this kind.', noRight: 'Calls are shown to ranks with the right to “see dispatch and calls”.',
  viewOnly: 'Ranks with the right to “run dispatch” can take calls.',
  offDuty: 'You are off duty. Clock in to take calls.', toClock: 'To the time clock', dismiss: 'Close',
  takeFailed: 'Could not take the call:',
});
