import type { Deps } from '../../server/deps.ts';
import { setUnitStatus } from '../../server/domains/units/status-service.ts';
import { createMemoryBus } from '../../server/hub/bus.ts';
import { Database } from '../../server/store/db.ts';
import type { BenchDatabase } from './db.ts';
import { cpuMsOf, postgresPids, systemBusyMs } from './procs.ts';
import { resetStatuses, type ScaleSeeded } from './scale-seed.ts';

export interface PostgresCeiling {
  loops: number;
  ms: number;
  writes: number;
  errors: number;
  /** PostgreSQL's CPU over the run (postmaster and backends), ms; NaN on an external DATABASE_URL. */
  pgCpuMs: number;
  /** This process's CPU (the service's JavaScript and postgres.js), ms. */
  clientCpuMs: number;
  /** CPU every process on the box used meanwhile, ms (2 cores: at most 2 × ms). */
  boxBusyMs: number;
}

const CYCLE = ['3', '4', '7', '8', '1', '2'];

/**
 * The single primary's ceiling on this box, with the server out of the way: `loops` concurrent
 * loops in this process, each calling the status change service (`setUnitStatus`: the statements
 * and transaction a `PUT /units/{callsign}/status` runs, its event and audit row included; no HTTP,
 * no auth, no tRPC, an in-process bus) on its own share of the guilds, for `ms`.
 */
export async function measurePostgres(db: BenchDatabase, guilds: ScaleSeeded[], loops: number, ms: number): Promise<PostgresCeiling> {
  await resetStatuses(db, guilds);
  const database = new Database(db.url, loops);
  const deps = { db: database, bus: createMemoryBus(), get sql() { return database.sql; } } as unknown as Deps;
  const actor = { kind: 'system' as const, id: 'bench' };
  const by = { ...actor, name: 'bench' };
  const counters = guilds.map((g) => new Array<number>(g.callsigns.length).fill(0));
  let writes = 0;
  let errors = 0;
  let counting = false;
  let stop = false;
  const loop = async (i: number) => {
    for (let k = i; !stop; k += loops) {
      const gi = k % guilds.length;
      const unit = Math.floor(k / guilds.length) % guilds[gi].callsigns.length;
      const status = CYCLE[counters[gi][unit]++ % CYCLE.length];
      const counted = counting;
      try {
        await setUnitStatus(deps, guilds[gi].id, guilds[gi].callsigns[unit], status, actor, by);
        if (counted && counting) writes++;
      } catch {
        if (counted && counting) errors++;
      }
    }
  };
  try {
    // A second of warm-up first: every connection opened, every statement planned.
    const running = Array.from({ length: loops }, (_, i) => loop(i));
    await new Promise((r) => setTimeout(r, 1000));
    const pg = db.postmasterPid ? postgresPids(db.postmasterPid) : [];
    const pgCpu = () => pg.reduce((s, pid) => s + cpuMsOf(pid), 0);
    const pg0 = pgCpu();
    const self0 = process.cpuUsage();
    const box0 = systemBusyMs();
    const t0 = performance.now();
    counting = true;
    await new Promise((r) => setTimeout(r, ms));
    counting = false;
    const elapsed = performance.now() - t0;
    const self = process.cpuUsage(self0);
    const result = {
      loops, ms: elapsed, writes, errors,
      pgCpuMs: db.postmasterPid ? pgCpu() - pg0 : NaN,
      clientCpuMs: (self.user + self.system) / 1000,
      boxBusyMs: systemBusyMs() - box0,
    };
    stop = true;
    await Promise.all(running);
    return result;
  } finally {
    await database.end({ timeout: 1 });
  }
}
