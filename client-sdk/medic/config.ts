/**
 * `Config.Medic` of spec §2 "Game-side medic settings", typed, with its defaults, plus the sync
 * options of the write-ahead queue. `resolveMedicConfig(partial)` merges a partial config over the
 * defaults and throws one error naming every bad or unknown option (a typo is not silently ignored).
 */
export type AssistLevel = 'realistisch' | 'assistiert' | 'ausbildung';
/** Care tiers: 1 first aider, 2 emergency medical technician, 3 paramedic, 4 emergency physician. */
export type CareTier = 1 | 2 | 3 | 4;

export interface MedicConfig {
  /** Main switch of the in-game simulation (the sync runs whenever the server's medic module is on). */
  Runtime: { enabled: boolean };
  /** What to do about a conflicting ambulance script: stop it, or refuse to start. */
  Compat: { onConflict: 'stop' | 'refuse' };
  HealthAuthority: 'always' | 'while_patient';
  /** Debug only. */
  Health: { pin: boolean };
  /** scale: multiplier of deterioration rates; arrestFloorS: minimum seconds a cardiac arrest lasts before it is fatal. */
  Timeline: { scale: number; arrestFloorS: number };
  /** waitS: seconds dead before respawn is offered; bill: base + perInjury × injuries, at most max. */
  Respawn: { waitS: number; bill: { base: number; perInjury: number; max: number } };
  /** jobs: job grade → care tier; mdtRanks: service rank id → care tier (wins while the service is reachable). */
  Tiers: { jobs: Record<number, CareTier>; mdtRanks: Record<string, CareTier> };
  /** Guidance level and the highest a player may choose (realistisch < assistiert < ausbildung). */
  Assist: { default: AssistLevel; ceiling: AssistLevel };
  /** Per minigame; a name not listed is enabled. When false the minigame is a timed action with a fixed result. */
  Minigames: Record<string, { enabled: boolean }>;
  /** toDispatch: also send every emergency call to the board; requireItem: needs `medic_notruf`; minTier: to receive alerts. */
  Notruf: { toDispatch: boolean; requireItem: boolean; minTier: CareTier };
  Hospital: { enabled: boolean };
  /** Allow escape-hatch exports. */
  Integration: { hatchEnabled: boolean };
  /** Debug commands. */
  Debug: { enabled: boolean };
  /** The write-ahead queue (createMedicSync options). `dir` is relative to the resource folder. */
  Sync: {
    dir: string;
    persistDebounceMs: number;
    batchSize: number;
    maxQueued: number;
    backoff: { baseMs: number; maxMs: number };
    unauthorizedRetryMs: number;
    timeoutMs: number;
  };
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends Record<string | number, unknown> ? DeepPartial<T[K]> : T[K] };

export function defaultMedicConfig(): MedicConfig {
  return {
    Runtime: { enabled: false },
    Compat: { onConflict: 'stop' },
    HealthAuthority: 'always',
    Health: { pin: true },
    Timeline: { scale: 0.45, arrestFloorS: 240 },
    Respawn: { waitS: 60, bill: { base: 500, perInjury: 250, max: 5000 } },
    Tiers: { jobs: { 0: 2, 1: 3, 2: 4 }, mdtRanks: {} },
    Assist: { default: 'assistiert', ceiling: 'ausbildung' },
    Minigames: {},
    Notruf: { toDispatch: true, requireItem: true, minTier: 2 },
    Hospital: { enabled: true },
    Integration: { hatchEnabled: true },
    Debug: { enabled: false },
    Sync: {
      dir: 'medic-queue', persistDebounceMs: 2000, batchSize: 100, maxQueued: 50_000,
      backoff: { baseMs: 1000, maxMs: 60_000 }, unauthorizedRetryMs: 30_000, timeoutMs: 30_000,
    },
  };
}

const ASSIST: AssistLevel[] = ['realistisch', 'assistiert', 'ausbildung'];
/** Keys whose value is a free map (any key), checked entry by entry below. */
const MAPS = new Set(['Tiers.jobs', 'Tiers.mdtRanks', 'Minigames']);

type Check = (v: unknown) => boolean;
const bool: Check = (v) => typeof v === 'boolean';
const num = (min: number, max = Infinity): Check => (v) => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
const int = (min: number, max = Infinity): Check => (v) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
const oneOf = (...vs: string[]): Check => (v) => typeof v === 'string' && vs.includes(v);
const tier = int(1, 4);

const RULES: Record<string, [Check, string]> = {
  'Runtime.enabled': [bool, 'true or false'],
  'Compat.onConflict': [oneOf('stop', 'refuse'), "'stop' or 'refuse'"],
  HealthAuthority: [oneOf('always', 'while_patient'), "'always' or 'while_patient'"],
  'Health.pin': [bool, 'true or false'],
  'Timeline.scale': [num(0, 100), 'a number from 0 to 100'],
  'Timeline.arrestFloorS': [num(0, 86_400), 'seconds from 0 to 86400'],
  'Respawn.waitS': [num(0, 86_400), 'seconds from 0 to 86400'],
  'Respawn.bill.base': [int(0, 100_000), 'a whole amount from 0 to 100000'],
  'Respawn.bill.perInjury': [int(0, 100_000), 'a whole amount from 0 to 100000'],
  'Respawn.bill.max': [int(0, 100_000), 'a whole amount from 0 to 100000'],
  'Assist.default': [oneOf(...ASSIST), ASSIST.join(', ')],
  'Assist.ceiling': [oneOf(...ASSIST), ASSIST.join(', ')],
  'Notruf.toDispatch': [bool, 'true or false'],
  'Notruf.requireItem': [bool, 'true or false'],
  'Notruf.minTier': [tier, 'a care tier 1..4'],
  'Hospital.enabled': [bool, 'true or false'],
  'Integration.hatchEnabled': [bool, 'true or false'],
  'Debug.enabled': [bool, 'true or false'],
  'Sync.dir': [(v) => typeof v === 'string' && v.length > 0, 'a directory'],
  'Sync.persistDebounceMs': [int(0, 600_000), 'ms from 0 to 600000'],
  'Sync.batchSize': [int(1, 500), 'a whole number from 1 to 500'],
  'Sync.maxQueued': [int(1, 10_000_000), 'a whole number from 1 to 10000000'],
  'Sync.backoff.baseMs': [int(1, 3_600_000), 'ms from 1 to 3600000'],
  'Sync.backoff.maxMs': [int(1, 3_600_000), 'ms from 1 to 3600000'],
  'Sync.unauthorizedRetryMs': [int(100, 3_600_000), 'ms from 100 to 3600000'],
  'Sync.timeoutMs': [int(100, 600_000), 'ms from 100 to 600000'],
};

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Defaults merged with `partial` (objects merged key by key, maps replaced); throws naming every bad option. */
export function resolveMedicConfig(partial: DeepPartial<MedicConfig> | Record<string, unknown> = {}): MedicConfig {
  const problems: string[] = [];
  const merged = merge(defaultMedicConfig() as unknown as Record<string, unknown>, partial, '', problems) as unknown as MedicConfig;
  for (const [path, [check, want]] of Object.entries(RULES)) {
    const v = path.split('.').reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), merged);
    if (!check(v)) problems.push(`Config.Medic.${path} must be ${want} (got ${JSON.stringify(v)})`);
  }
  for (const [grade, t] of Object.entries(merged.Tiers.jobs)) {
    if (!/^\d+$/.test(grade) || !tier(t)) problems.push(`Config.Medic.Tiers.jobs[${grade}] must map a job grade (0, 1, …) to a care tier 1..4`);
  }
  for (const [rank, t] of Object.entries(merged.Tiers.mdtRanks)) {
    if (!tier(t)) problems.push(`Config.Medic.Tiers.mdtRanks[${JSON.stringify(rank)}] must be a care tier 1..4`);
  }
  for (const [name, m] of Object.entries(merged.Minigames)) {
    if (!isObject(m) || !bool(m.enabled) || Object.keys(m).length !== 1) problems.push(`Config.Medic.Minigames.${name} must be { enabled: true | false }`);
  }
  if (ASSIST.indexOf(merged.Assist.default) > ASSIST.indexOf(merged.Assist.ceiling)) problems.push('Config.Medic.Assist.default must not be above Assist.ceiling');
  if (merged.Respawn.bill.base > merged.Respawn.bill.max) problems.push('Config.Medic.Respawn.bill.base must not be above bill.max');
  if (merged.Sync.backoff.baseMs > merged.Sync.backoff.maxMs) problems.push('Config.Medic.Sync.backoff.baseMs must not be above maxMs');
  if (problems.length) throw new Error(`invalid Config.Medic:\n  ${problems.join('\n  ')}`);
  return merged;
}

/** Whether minigame `name` is on (not listed = on). */
export function minigameEnabled(config: MedicConfig, name: string): boolean {
  return config.Minigames[name]?.enabled !== false;
}

/** The care tier of a job grade (the highest listed grade at or below it), or null when none applies. */
export function tierOfJobGrade(config: MedicConfig, grade: number): CareTier | null {
  let best: CareTier | null = null, bestGrade = -1;
  for (const [g, t] of Object.entries(config.Tiers.jobs)) {
    if (Number(g) <= grade && Number(g) > bestGrade) [best, bestGrade] = [t, Number(g)];
  }
  return best;
}

function merge(base: Record<string, unknown>, over: unknown, at: string, problems: string[]): Record<string, unknown> {
  if (over === undefined) return base;
  if (!isObject(over)) {
    problems.push(`Config.Medic${at} must be an object`);
    return base;
  }
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const path = at ? `${at.slice(1)}.${k}` : k;
    if (!(k in base)) {
      problems.push(`Config.Medic.${path} is not an option`);
      continue;
    }
    if (v === undefined) continue;
    if (MAPS.has(path)) out[k] = isObject(v) ? { ...v } : v;
    else if (isObject(base[k])) out[k] = merge(base[k] as Record<string, unknown>, v, `${at}.${k}`, problems);
    else out[k] = v;
  }
  return out;
}
