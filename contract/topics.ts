/** Update topics of spec §6, exactly as written there, plus `calls` (game calls on the board) and `medic` (patient files). */
export const topics = [
  'emojis', 'letterheads', 'onDuty', 'overview', 'dispatchers', 'alarm',
  'standby', 'units', 'access', 'einsatzEntries', 'settings', 'uploads', 'calls', 'medic',
] as const;
export type Topic = (typeof topics)[number];

/** Topics whose whole state the hub keeps in memory; the others are delivered as change notices. */
export const hotTopics = ['units', 'alarm', 'onDuty', 'dispatchers', 'standby', 'overview', 'calls'] as const satisfies readonly Topic[];
export type HotTopic = (typeof hotTopics)[number];

/**
 * The counters of the `overview` topic, each the number of entries of one hot topic: whoever may
 * not watch that topic does not get its counter either.
 */
export const overviewCounters = {
  onDuty: 'onDuty', dispatchers: 'dispatchers', units: 'units', alarms: 'alarm', standby: 'standby', openCalls: 'calls',
} as const satisfies Record<string, HotTopic>;
export type OverviewCounter = keyof typeof overviewCounters;

export function isHotTopic(t: Topic): t is HotTopic {
  return (hotTopics as readonly string[]).includes(t);
}

/**
 * One change inside a topic's delta. State-changing ops (see reducers.ts): `upsert {key, value}`,
 * `remove {key}`, `patch {key, value}`, `unlink {key, field, id}`, `add {field, by}`, `set {field, value}`.
 * Any other op is a notice: delivered, but it changes no state.
 */
export type Op = { op: string } & Record<string, unknown>;

/** A committed transaction's event in its guild's stream: contiguous `seq`, deltas per topic. */
export interface GuildEvent {
  guildId: string;
  epoch: string;
  seq: number;
  /** Epoch ms of the commit's transaction. */
  at: number;
  deltas: Partial<Record<Topic, Op[]>>;
}
