/** Update topics of spec §6, exactly as written there. */
export const topics = [
  'emojis', 'letterheads', 'onDuty', 'overview', 'dispatchers', 'alarm',
  'standby', 'units', 'access', 'einsatzEntries', 'settings', 'uploads',
] as const;
export type Topic = (typeof topics)[number];

/** One change inside a topic's delta. `op` names the change; the rest is its data. */
export type Op = { op: string } & Record<string, unknown>;

/** A committed event of one (guild, topic) stream. */
export interface StreamEvent {
  guildId: string;
  topic: Topic;
  epoch: string;
  seq: number;
  /** Epoch ms of the commit's transaction. */
  at: number;
  ops: Op[];
}
