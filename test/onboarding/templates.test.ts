import t from 'tap';
import { CreateRank } from '../../server/domains/ranks/schema.ts';
import { slugOf } from '../../server/domains/ranks/service.ts';
import { CreateUnit, PutStatus } from '../../server/domains/units/schema.ts';
import { CreateKeyword, PutUnitType } from '../../server/domains/aao/schema.ts';
import { modules } from '../../contract/modules.ts';
import { canonicalZone } from '../../server/domains/stats/zone.ts';
import { areas, planOf, templateIds, templates } from '../../server/domains/onboarding/areas.ts';

// The templates are data: each item must pass the same schema its own route applies, so a seed
// never stores what an admin could not have entered by hand.
for (const id of templateIds) {
  const tpl = templates[id];
  t.test(`template ${id}`, async (t) => {
    t.equal(tpl.id, id);
    for (const r of tpl.ranks) {
      const parsed = CreateRank.safeParse({ id: r.id, name: r.name, position: r.position, capabilities: [...r.capabilities] });
      t.ok(parsed.success, `rank ${r.name}: ${parsed.error?.issues.map((i) => i.message).join('; ') ?? 'valid'}`);
      t.equal(r.id, slugOf(r.name), `rank ${r.name} has the id POST /admin/ranks would derive`);
    }
    t.equal(new Set(tpl.ranks.map((r) => r.name.toLowerCase())).size, tpl.ranks.length, 'rank names unique (any case)');
    t.equal(new Set(tpl.ranks.map((r) => r.position)).size, tpl.ranks.length, 'one rank per position');
    const top = tpl.ranks.reduce((a, b) => (a.position > b.position ? a : b));
    t.ok(top.capabilities.includes('settings.manage'), 'the highest rank can manage the guild');

    for (const s of tpl.statuses) {
      const parsed = PutStatus.safeParse(s);
      t.ok(parsed.success, `status ${s.code}: ${parsed.error?.issues.map((i) => i.message).join('; ') ?? 'valid'}`);
    }
    t.ok(tpl.statuses.some((s) => s.code === '2'), 'FMS 2 exists: new units start in it');
    t.equal(new Set(tpl.statuses.map((s) => s.code)).size, tpl.statuses.length, 'status codes unique');

    for (const u of tpl.units) {
      const parsed = CreateUnit.safeParse(u);
      t.ok(parsed.success, `unit ${u.callsign}: ${parsed.error?.issues.map((i) => i.message).join('; ') ?? 'valid'}`);
    }
    t.equal(new Set(tpl.units.map((u) => u.callsign.toLowerCase())).size, tpl.units.length, 'callsigns unique (any case)');

    const types = new Set(tpl.unitTypes.map((x) => x.code));
    for (const x of tpl.unitTypes) {
      const parsed = PutUnitType.safeParse(x);
      t.ok(parsed.success, `unit type ${x.code}: ${parsed.error?.issues.map((i) => i.message).join('; ') ?? 'valid'}`);
    }
    t.equal(new Set(tpl.unitTypes.map((x) => x.code.toLowerCase())).size, tpl.unitTypes.length, 'type codes unique (any case)');
    for (const k of tpl.keywords) {
      const parsed = CreateKeyword.safeParse(k);
      t.ok(parsed.success && parsed.data.keyword === k.keyword, `keyword ${k.keyword}: ${parsed.error?.issues.map((i) => i.message).join('; ') ?? 'valid, stored as written'}`);
      t.ok(k.requirements.every((r) => types.has(r.type)), `keyword ${k.keyword} asks only for the template's types`);
    }
    t.equal(new Set(tpl.keywords.map((k) => k.keyword.toLowerCase())).size, tpl.keywords.length, 'keywords unique (any case)');
    t.ok(tpl.units.every((u) => types.has(u.type)), 'every unit has one of the template\'s types');
    t.ok(tpl.statuses.some((x) => x.available), 'some status is available for proposals');

    for (const l of tpl.letterheads) {
      t.match(l.primaryColor, /^#[0-9a-f]{6}$/);
      t.match(l.secondaryColor, /^#[0-9a-f]{6}$/);
      t.ok(l.name.length > 0 && l.addressLines.length > 0);
    }
    t.same(Object.keys(tpl.modules).sort(), [...modules].sort(), 'every module switch is stored');
    t.equal(canonicalZone(tpl.clock.timeZone), tpl.clock.timeZone);
    t.ok(tpl.clock.maxShiftMs >= 3_600_000 && tpl.clock.maxShiftMs <= 604_800_000, 'maxShiftMs within the column\'s check');
    t.ok(tpl.clock.minOnDuty > 0, 'a staffing minimum, so the area is no longer empty');
    for (const area of areas) t.ok(planOf(tpl, area).count > 0, `${area}: the template creates something`);
  });
}
