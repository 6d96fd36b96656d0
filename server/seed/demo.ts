import type { Database } from '../store/db.ts';
import { insertGuild } from '../domains/guilds/store.ts';
import { insertPerson, insertRank } from '../domains/people/store.ts';
import { insertUnit } from '../domains/units/store.ts';
import { createApiKey } from '../domains/apikeys/service.ts';
import { createLoginLink } from '../auth/login-links.ts';
import { capabilities } from '../../contract/capabilities.ts';
import { seedDemoPatient } from '../domains/medic/demo.ts';
import { replaceTiers } from '../domains/medic/board-store.ts';
import { insertKeywords, insertUnitTypes } from '../domains/onboarding/store.ts';
import { fireRescueKeywords, fireRescueTypes } from '../domains/onboarding/templates/fire-de.ts';

export const DEMO_GUILD = '100000000000000001';
export const DEMO_ADMIN = '200000000000000001';

const ranks = [
  { id: 'praktikant', name: 'Praktikant', position: 1, capabilities: ['timeclock.own.use'] },
  { id: 'rettungssanitaeter', name: 'Rettungssanitäter', position: 2, capabilities: ['timeclock.own.use', 'personal.sheet.view'] },
  { id: 'notfallsanitaeter', name: 'Notfallsanitäter', position: 3, capabilities: ['timeclock.own.use', 'personal.sheet.view', 'documents.letterhead.view'] },
  { id: 'leitstelle', name: 'Leitstellendisponent', position: 4, capabilities: ['timeclock.own.use', 'timeclock.manage', 'dispatch.view', 'dispatch.manage', 'incidents.manage', 'personal.sheet.view', 'stats.leaderboard.view', 'documents.letterhead.view'] },
  { id: 'wachleitung', name: 'Wachleitung', position: 5, capabilities: [...capabilities] },
];

const people = [
  { userId: DEMO_ADMIN, nickname: 'Demo Admin', badge: '01', rankId: 'wachleitung', isAdmin: true },
  { userId: '200000000000000002', nickname: 'Lena Berger', badge: '02', rankId: 'leitstelle', isAdmin: false },
  { userId: '200000000000000003', nickname: 'Jonas Krüger', badge: '03', rankId: 'notfallsanitaeter', isAdmin: false },
  { userId: '200000000000000004', nickname: 'Mia Schneider', badge: '04', rankId: 'rettungssanitaeter', isAdmin: false },
  { userId: '200000000000000005', nickname: 'Paul Wagner', badge: '05', rankId: 'praktikant', isAdmin: false },
];

const units = [
  { callsign: 'RTW-1', label: 'Rettungswagen 1', orgUnit: 'Rettungswache Mitte', type: 'RTW' },
  { callsign: 'RTW-2', label: 'Rettungswagen 2', orgUnit: 'Rettungswache Nord', type: 'RTW' },
  { callsign: 'NEF-1', label: 'Notarzteinsatzfahrzeug 1', orgUnit: 'Rettungswache Mitte', type: 'NEF' },
  { callsign: 'HLF-1', label: 'Hilfeleistungslöschfahrzeug 1', orgUnit: 'Feuerwache 1', type: 'HLF' },
];

/**
 * Seeds the demo guild when it does not exist yet. Returns the one-time login link and the
 * unscoped key (shown only now), or null when the guild was already there.
 */
export async function seedDemo(db: Database, publicUrl: string): Promise<{ guildId: string; loginLink: string; apiKey: string } | null> {
  return db.begin(async (tx) => {
    if (!(await insertGuild(tx, DEMO_GUILD, 'Demo Rettungsdienst'))) return null;
    for (const r of ranks) await insertRank(tx, DEMO_GUILD, r);
    for (const p of people) await insertPerson(tx, DEMO_GUILD, p);
    // The fire and rescue template's AAO (unit types, keywords); the units carry their type.
    await insertUnitTypes(tx, DEMO_GUILD, fireRescueTypes);
    await insertKeywords(tx, DEMO_GUILD, fireRescueKeywords);
    for (const u of units) await insertUnit(tx, DEMO_GUILD, { ...u, status: '2' }); // the guild's status catalogue is seeded with it
    // care tiers of the medic sync (GET /medic/qualifications): 1 first aider .. 4 emergency physician
    await replaceTiers(tx, DEMO_GUILD, [
      { rankId: 'praktikant', tier: 1 }, { rankId: 'rettungssanitaeter', tier: 2 }, { rankId: 'notfallsanitaeter', tier: 3 }, { rankId: 'wachleitung', tier: 4 },
    ]);
    const { key } = await createApiKey(tx, DEMO_GUILD, 'demo', null);
    const loginLink = await createLoginLink(tx, publicUrl, DEMO_GUILD, DEMO_ADMIN);
    return { guildId: DEMO_GUILD, loginLink, apiKey: key };
  });
}

/**
 * Four weeks of past shifts for the demo's people (the quick start's Statistik tab has something
 * to show): on about every third day an evening shift of 2 to 7 hours, the same on every start
 * (derived from hashes, not random). All closed, all ended before now. And one open patient file
 * (the Medic tab): injuries, treatments, 20 minutes of vital signs, an ECG, a tox screen, an X-ray.
 */
export async function seedDemoHistory(db: Database): Promise<number> {
  await seedDemoPatient(db, DEMO_GUILD);
  const rows = await db.sql`
    insert into shifts (guild_id, user_id, clock_in_at, clock_out_at, status)
    select p.guild_id, p.user_id, s.start, s.start + s.length, 'CLOSED'
    from people p
    cross join generate_series(1, 28) as d(day)
    cross join lateral (select
      date_trunc('day', now()) - d.day * interval '1 day' + (15 + abs(hashtext(p.user_id || ':' || d.day)) % 6) * interval '1 hour' as start,
      (2 + abs(hashtext(d.day || ':' || p.user_id)) % 5) * interval '1 hour' + (abs(hashtext(p.user_id || ':m:' || d.day)) % 4) * interval '15 minutes' as length
    ) s
    where p.guild_id = ${DEMO_GUILD} and abs(hashtext(p.user_id || ':x:' || d.day)) % 3 = 0 and s.start + s.length < now()
    returning 1`;
  return rows.length;
}
