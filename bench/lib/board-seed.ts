import { createApiKey } from '../../server/domains/apikeys/service.ts';
import { insertPerson } from '../../server/domains/people/store.ts';
import { insertUnit } from '../../server/domains/units/store.ts';
import { DEMO_GUILD, seedDemo } from '../../server/seed/demo.ts';
import type { BenchDatabase } from './db.ts';

/** The sizes of the benchmark (issue 16): what one busy guild's board holds. */
export interface BoardSize { units: number; calls: number; onDuty: number; incidents: number }

/** What the delta driver writes to: the seeded guild, its keys, and the names of what it holds. */
export interface SeededGuild {
  guildId: string;
  /** Unscoped API keys; call reports rotate over them (the call rate limit is per key). */
  keys: string[];
  callsigns: string[];
  externalIds: string[];
  /** Badges of people who are clocked in and in no unit: the driver clocks them out and in again. */
  floaters: string[];
  /** Status codes without `alarm` (the driver never sets off an alarm). */
  statuses: { code: string; label: string; color: string }[];
}

const orgUnits = ['RW Nord', 'RW Süd', 'RW Mitte', 'FW 1', 'FW 2', 'FW 3'];
const kinds = ['RTW', 'NEF', 'KTW', 'HLF', 'DLK', 'ELW'];
const firstNames = ['Lena', 'Jonas', 'Mia', 'Paul', 'Emma', 'Leon', 'Hanna', 'Finn', 'Sofia', 'Elias', 'Lea', 'Noah'];
const lastNames = ['Berger', 'Krüger', 'Schneider', 'Wagner', 'Fischer', 'Weber', 'Hoffmann', 'Becker'];
const streets = ['Hauptstraße', 'Bahnhofstraße', 'Am Markt', 'Lindenallee', 'Industriestraße', 'Hafenweg'];
const titles = ['Verkehrsunfall mit Verletzten', 'Bewusstlose Person', 'Brand in Wohnung', 'Sturz aus Höhe', 'Atemnot', 'Auffahrunfall'];
const floaterCount = 10;

export function callsignOf(i: number): string {
  return `${kinds[i % kinds.length]}-${Math.floor(i / kinds.length) + 1}`;
}

/**
 * The demo guild (ranks, the demo people, the default status catalogue) grown to `size` directly
 * in the database before the server starts: units and people. The rest goes through the running
 * server's REST API (`fill`), so it is stored and numbered the way users' writes are.
 */
export async function seedDatabase(db: BenchDatabase, size: BoardSize, publicUrl: string): Promise<{ keys: string[] }> {
  if (!(await seedDemo(db.db, publicUrl))) throw new Error('the bench database already had the demo guild');
  await db.sql`delete from units where guild_id = ${DEMO_GUILD}`; // the demo's four: the bench names its own
  for (let i = 0; i < size.units; i++) {
    await insertUnit(db.sql, DEMO_GUILD, { callsign: callsignOf(i), label: `${kinds[i % kinds.length]} ${Math.floor(i / kinds.length) + 1}`, orgUnit: orgUnits[i % orgUnits.length], status: '2' });
  }
  // The demo's five people plus enough bench people for `onDuty`, and the floaters beside them.
  for (let i = 0; i < size.onDuty - 5 + floaterCount; i++) {
    await insertPerson(db.sql, DEMO_GUILD, {
      userId: String(300000000000000001n + BigInt(i)),
      nickname: `${firstNames[i % firstNames.length]} ${lastNames[Math.floor(i / firstNames.length) % lastNames.length]} ${i + 1}`,
      badge: String(100 + i),
      rankId: i % 3 === 0 ? 'notfallsanitaeter' : 'rettungssanitaeter',
      isAdmin: false,
    });
  }
  const keys: string[] = [];
  for (let i = 0; i < 4; i++) keys.push((await createApiKey(db.sql, DEMO_GUILD, `bench ${i + 1}`, null)).key);
  return { keys };
}

type Rest = (method: string, path: string, body?: unknown, key?: string) => Promise<unknown>;

/**
 * Through the server: clock-ins (the five demo people and the bench people: `onDuty`), crews of
 * two in the first units, the open calls, the incident sheets, and a call rate limit that lets the
 * driver re-report calls at its pace (the most the API allows).
 */
export async function fill(rest: Rest, size: BoardSize, keys: string[]): Promise<SeededGuild> {
  await rest('PUT', '/admin/call-rate-limit', { perMinute: 6000, burst: 1000 });
  const benchPeople = size.onDuty - 5 + floaterCount;
  const badges = [...['01', '02', '03', '04', '05'], ...Array.from({ length: benchPeople }, (_, i) => String(100 + i))];
  await inParallel(badges, 8, (badge) => rest('POST', '/admin/clock-in', { badge }));
  const callsigns = Array.from({ length: size.units }, (_, i) => callsignOf(i));
  // Crews: two bench people in each of the first units, the floaters stay out of units.
  const crew = Array.from({ length: benchPeople - floaterCount }, (_, i) => String(300000000000000001n + BigInt(i)));
  await inParallel(crew, 8, (userId, i) => rest('PUT', `/units/${callsigns[Math.floor(i / 2) % callsigns.length]}/members/${userId}`));
  const externalIds = Array.from({ length: size.calls }, (_, i) => `bench-${i + 1}`);
  await inParallel(externalIds, 8, (externalId, i) => rest('POST', '/integrations/ingame/calls', callReport(externalId, i, 0), keys[i % keys.length]));
  await inParallel(Array.from({ length: size.incidents }, (_, i) => i), 8, (i) => rest('POST', '/incidents', {
    keyword: `${titles[i % titles.length]} ${i + 1}`, priority: 1 + (i % 3), location: { street: `${streets[i % streets.length]} ${i + 1}`, postal: '10115' },
  }));
  const catalogue = await rest('GET', '/admin/statuses') as { statuses: { code: string; label: string; color: string; alarm: boolean }[] };
  return {
    guildId: DEMO_GUILD, keys, callsigns, externalIds,
    floaters: badges.slice(-floaterCount),
    statuses: catalogue.statuses.filter((s) => !s.alarm).map(({ code, label, color }) => ({ code, label, color })),
  };
}

/** A call report of the game: the first opens call `externalId`, later ones update it (reportCount + 1). */
export function callReport(externalId: string, i: number, report: number) {
  return {
    externalId, source: 'bench', kind: i % 17 === 0 ? 'panik' : 'notruf', priority: 1 + (i % 3),
    title: `${titles[i % titles.length]} ${i + 1}`,
    message: `Anrufer meldet Lage vor Ort, Meldung ${report + 1}.`,
    location: { x: (i * 37) % 4000 - 2000, y: (i * 53) % 4000 - 2000, street: `${streets[i % streets.length]} ${i + 1}`, postal: String(10_000 + i) },
    caller: { name: `${firstNames[i % firstNames.length]} ${lastNames[i % lastNames.length]}`, phone: `0151 ${1_000_000 + i}` },
  };
}

async function inParallel<T>(items: T[], width: number, fn: (item: T, i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  }));
}
