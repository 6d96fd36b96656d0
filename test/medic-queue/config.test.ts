/**
 * Config.Medic (spec §2 "Game-side medic settings"): the defaults of the spec's table, merging a
 * partial config, and one error naming every bad or unknown option.
 */
import t from 'tap';
import { defaultMedicConfig, minigameEnabled, resolveMedicConfig, tierOfJobGrade } from '../../client-sdk/medic/index.ts';

t.test('the defaults are the spec table', async (t) => {
  const c = resolveMedicConfig();
  t.equal(c.Runtime.enabled, false, 'simulation off');
  t.equal(c.Compat.onConflict, 'stop');
  t.equal(c.HealthAuthority, 'always');
  t.equal(c.Health.pin, true);
  t.same(c.Timeline, { scale: 0.45, arrestFloorS: 240 });
  t.equal(c.Respawn.waitS, 60);
  t.same([c.Respawn.bill.base, c.Respawn.bill.max], [500, 5000]);
  t.same(c.Tiers, { jobs: { 0: 2, 1: 3, 2: 4 }, mdtRanks: {} });
  t.same(c.Assist, { default: 'assistiert', ceiling: 'ausbildung' });
  t.ok(minigameEnabled(c, 'cpr'), 'minigames are on unless switched off');
  t.same(c.Notruf, { toDispatch: true, requireItem: true, minTier: 2 });
  t.equal(c.Hospital.enabled, true);
  t.equal(c.Integration.hatchEnabled, true);
  t.equal(c.Debug.enabled, false);
  t.equal(c.Sync.persistDebounceMs, 2000, 'checkpoint every 2 s');
  t.equal(c.Sync.batchSize, 100);
  t.same(c, defaultMedicConfig());
});

t.test('a partial config is merged over the defaults', async (t) => {
  const c = resolveMedicConfig({ Runtime: { enabled: true }, Tiers: { mdtRanks: { medic: 3 } }, Minigames: { cpr: { enabled: false } }, Sync: { backoff: { maxMs: 5000 } } });
  t.equal(c.Runtime.enabled, true);
  t.same(c.Tiers, { jobs: { 0: 2, 1: 3, 2: 4 }, mdtRanks: { medic: 3 } }, 'the jobs default stays beside the given ranks');
  t.equal(minigameEnabled(c, 'cpr'), false);
  t.same(c.Sync.backoff, { baseMs: 1000, maxMs: 5000 });
  t.equal(tierOfJobGrade(c, 1), 3);
  t.equal(tierOfJobGrade(c, 7), 4, 'a grade above the listed ones gets the highest listed grade\'s tier');
  t.equal(defaultMedicConfig().Runtime.enabled, false, 'the defaults were not changed');
});

t.test('bad and unknown options are named, all at once', async (t) => {
  const err = t.throws(() => resolveMedicConfig({
    Timeline: { scale: -1 }, Compat: { onConflict: 'ignore' }, Notruf: { minTier: 5 }, Tiers: { jobs: { 0: 9 } },
    Assist: { default: 'ausbildung', ceiling: 'realistisch' }, Debugg: { enabled: true }, Sync: { batchSize: 1000 },
  } as never)) as Error;
  for (const part of ['Timeline.scale', 'Compat.onConflict', 'Notruf.minTier', 'Tiers.jobs[0]', 'Assist.default must not be above', 'Debugg is not an option', 'Sync.batchSize']) {
    t.match(err.message, part, `names ${part}`);
  }
});
