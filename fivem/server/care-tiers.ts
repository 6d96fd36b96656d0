/**
 * Care tiers of medics (the dt-medic `careTier` export): the service's rank → tier mapping
 * (`GET /medic/qualifications`, read at start and every 5 min) wins while it is at most 10 min old;
 * else the job grade through Config.Medic.Tiers.jobs; else null.
 */
import { request } from '../../client-sdk/game.ts';
import { tierOfJobGrade, type MedicConfig } from '../../client-sdk/medic/index.ts';

type Log = (message: string) => void;
interface Qualified { badgeNumber: string | null; rankId: string; tier: number }

export function createCareTiers(opts: { baseUrl: string; apiKey: string; config: MedicConfig; log: Log }) {
  let known: { at: number; byBadge: Map<string, Qualified> } | null = null;
  async function refresh() {
    try {
      const res = await request(`${opts.baseUrl}/api/v1/medic/qualifications`, { headers: { authorization: `Bearer ${opts.apiKey}` } });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      const tiers = (JSON.parse(res.body) as { tiers: Qualified[] }).tiers;
      known = { at: Date.now(), byBadge: new Map(tiers.filter((p) => p.badgeNumber).map((p) => [p.badgeNumber!, p])) };
    } catch (err) {
      opts.log(`qualifications not read (${(err as Error).message}); job grades decide the care tier meanwhile`);
    }
  }
  const ready = refresh();
  const timer = setInterval(refresh, 300_000);
  return {
    ready,
    stop: () => clearInterval(timer),
    /** Care tier 1..4 of `{ badge, jobGrade }`, or null. */
    tierOf(who: { badge?: unknown; jobGrade?: unknown }): number | null {
      if ((typeof who.badge === 'string' || typeof who.badge === 'number') && /^\d{1,10}$/.test(String(who.badge)) && known && Date.now() - known.at < 600_000) {
        const person = known.byBadge.get(String(Number(who.badge)).padStart(2, '0'));
        if (person) return opts.config.Tiers.mdtRanks[person.rankId] ?? person.tier;
      }
      return typeof who.jobGrade === 'number' && Number.isInteger(who.jobGrade) ? tierOfJobGrade(opts.config, who.jobGrade) : null;
    },
  };
}

export type CareTiers = ReturnType<typeof createCareTiers>;
