import type { GuildEvent, Topic } from '../../contract/topics.ts';

/**
 * What `bench fanout` publishes: a guild's board traffic, one event per tick, each touching one or
 * two of the four board topics with one small op (~300 B of JSON), the way clock-ins, status
 * changes and alarms do. Every op carries `t`, the publisher's `process.hrtime.bigint()` as a
 * decimal string (CLOCK_MONOTONIC: comparable across processes on one host), so the load
 * generator can time each delivery without parsing JSON.
 */

export const BOARD_TOPICS = ['units', 'alarm', 'onDuty', 'dispatchers'] as const satisfies readonly Topic[];

export const BENCH_GUILD = '900000000000000002';

const orgUnits = ['RW Nord', 'RW Süd', 'RW Mitte', 'FW 1', 'FW 2'];
const kinds = ['RTW', 'NEF', 'KTW', 'HLF'];

/** The seeded units (what a board shows); events change their status and crew. */
export const benchUnits = Array.from({ length: 40 }, (_, i) => {
  const kind = kinds[i % kinds.length];
  const n = Math.floor(i / kinds.length) + 1;
  return { callsign: `${kind}-${n}`, label: `${kind} ${n}`, orgUnit: orgUnits[i % orgUnits.length] };
});

const firstNames = ['Lena', 'Jonas', 'Mia', 'Paul', 'Emma', 'Leon', 'Hanna', 'Finn', 'Sofia', 'Elias', 'Lea', 'Noah'];
const lastNames = ['Berger', 'Krüger', 'Schneider', 'Wagner', 'Fischer', 'Weber'];
export const benchRanks = ['Praktikant', 'Rettungssanitäter', 'Notfallsanitäter', 'Leitstellendisponent'];

/** The seeded people: crews, people on duty, dispatchers. */
export const benchPeople = Array.from({ length: 60 }, (_, i) => ({
  userId: String(300000000000000001n + BigInt(i)),
  nickname: `${firstNames[i % firstNames.length]} ${lastNames[Math.floor(i / firstNames.length) % lastNames.length]}`,
  badge: String(i + 1).padStart(2, '0'),
  rank: benchRanks[i % benchRanks.length],
}));

const statuses = ['1', '2', '3', '4', '6', '8'];

/** The deltas of event number `i` (0, 1, 2, …), stamped with `t`. */
export function eventDeltas(i: number, t: bigint): GuildEvent['deltas'] {
  const stamp = t.toString();
  const now = Date.now();
  const u = benchUnits[i % benchUnits.length];
  const crew = [benchPeople[(2 * i) % benchPeople.length], benchPeople[(2 * i + 1) % benchPeople.length]].map((p) => ({ id: p.userId, nickname: p.nickname }));
  const unit = (status: string) => ({ op: 'upsert', key: u.callsign, value: { callsign: u.callsign, label: u.label, orgUnit: u.orgUnit, status, since: now, t: stamp, members: crew } });
  switch (i % 10) {
    case 6: // emergency call (FMS 0): the unit and the alarm list
      return { units: [unit('0')], alarm: [{ op: 'upsert', key: u.callsign, value: { callsign: u.callsign, status: '0', since: now, t: stamp } }] };
    case 7: { // the previous alarm is acknowledged
      const before = benchUnits[(i - 1) % benchUnits.length];
      return { units: [unit('2')], alarm: [{ op: 'remove', key: before.callsign, t: stamp }] };
    }
    case 8: { // a clock-in
      const p = benchPeople[Math.floor(i / 10) % benchPeople.length];
      return { onDuty: [{ op: 'upsert', key: p.userId, value: { userId: p.userId, nickname: p.nickname, badge: p.badge, rank: p.rank, since: now, t: stamp } }] };
    }
    case 9: { // a dispatcher takes a slot
      const p = benchPeople[(Math.floor(i / 10) * 7) % benchPeople.length];
      const slot = 1 + (Math.floor(i / 10) % 2);
      return { dispatchers: [{ op: 'upsert', key: String(slot), value: { slot, userId: p.userId, nickname: p.nickname, since: now, t: stamp } }] };
    }
    default: // a status change with its crew
      return { units: [unit(statuses[i % statuses.length])] };
  }
}
