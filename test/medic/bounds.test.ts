import t from 'tap';
import { assertError } from '../helpers/fixtures.ts';
import { nextId, vital } from './events.ts';
import { medicWorld } from './world.ts';

// Every event type at its bounds: the lowest and highest value accepted, one past each rejected
// (400 for that event alone) with an error naming the field; unknown types and fields; the envelope;
// whole-request 400s. Each case is sent in a batch with a valid sample, which is applied regardless.
const G = 'g-medic-bounds';
const { post, api } = await medicWorld(t, G);
const now = Date.now();
const s = (n: number, c = 'x') => c.repeat(n);

/** [type, valid fields, field, lowest ok, highest ok, below, above]; `undefined` where there is no such bound. */
type Bound = [string, object, string, unknown, unknown, unknown, unknown];
const by = { name: 'Dr. Who' };
const treatment = { treatment: 'tourniquet', by, tier: 2, result: 'success' };
const ecg = { rhythm: 'sinus', sampleRateHz: 250, samples: [0.1] };
const lab = { substances: { thc: 1 } };
const injury = { injuryId: 'i-1', bodyPart: 'head', kind: 'stab', severity: 2 };
const bounds: Bound[] = [
  ['patient_admitted', {}, 'name', '', s(80), undefined, s(81)],
  ['patient_admitted', {}, 'reason', 'a', s(200), undefined, s(201)],
  ['patient_admitted', {}, 'location', 'a', s(200), undefined, s(201)],
  ['patient_discharged', {}, 'note', 'a', s(500), undefined, s(501)],
  ['patient_deceased', {}, 'cause', 'a', s(200), undefined, s(201)],
  ['patient_respawned', {}, 'hospital', 'a', s(80), undefined, s(81)],
  ['patient_respawned', {}, 'bill', 0, 100000, -1, 100001],
  ['injury_added', injury, 'injuryId', 'a', s(64), '', s(65)],
  ['injury_added', injury, 'severity', 1, 5, 0, 6],
  ['injury_added', injury, 'bleeding', 0, 3, -1, 4],
  ['treatment_applied', treatment, 'treatment', 'a', s(60), '', s(61)],
  ['treatment_applied', treatment, 'item', 'medic_a', `medic_${s(58, 'b')}`, 'medic_', `medic_${s(59, 'b')}`],
  ['treatment_applied', treatment, 'tier', 1, 4, 0, 5],
  ['treatment_applied', treatment, 'note', '', s(200), undefined, s(201)],
  ['treatment_applied', treatment, 'by', { name: 'a' }, { name: s(60), citizenId: s(64), badge: s(8) }, { name: '' }, { name: s(61) }],
  ['vitals', {}, 'heartRate', 0, 300, -1, 301],
  ['vitals', {}, 'systolic', 0, 300, -1, 301],
  ['vitals', {}, 'diastolic', 0, 200, -1, 201],
  ['vitals', {}, 'spo2', 0, 100, -1, 101],
  ['vitals', {}, 'respRate', 0, 80, -1, 81],
  ['vitals', {}, 'temperature', 25, 45, 24.9, 45.1],
  ['vitals', {}, 'gcs', 3, 15, 2, 16],
  ['ecg', ecg, 'sampleRateHz', 50, 1000, 49, 1001],
  ['ecg', ecg, 'samples', [-10], Array(10000).fill(10), [], Array(10001).fill(0)],
  ['ecg', ecg, 'lead', '', s(8), undefined, s(9)],
  ['lab_toxicology', lab, 'substances', { a: 0 }, Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${s(38)}${String(i).padStart(2, '0')}`, 1e6])), {}, Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`s${i}`, 1]))],
  ['lab_toxicology', lab, 'unit', 'a', s(16), '', s(17)],
];
const errorPath: Record<string, RegExp> = { by: /^events\[0\]\.by\.name /, samples: /^events\[0\]\.samples/, substances: /^events\[0\]\.substances/ };

t.test('each bound: the lowest and highest value are applied, one past is rejected naming the field', async (t) => {
  let citizen = 0;
  for (const [type, fields, field, low, high, below, above] of bounds) {
    const event = (value: unknown) => ({ id: nextId(type), type, citizenId: `B-${++citizen}`, at: now, ...fields, [field]: value });
    for (const [what, value, ok] of [['lowest', low, true], ['highest', high, true], ['one below', below, false], ['one above', above, false]] as const) {
      if (value === undefined) continue;
      const res = await post([event(value), vital('B-sample', { heartRate: 70 }, now)]);
      t.equal(res.status, 200, `${type}.${field} ${what}`);
      t.equal(res.body.results[1].status, 'applied', `${type}.${field} ${what}: the other event is applied`);
      const r = res.body.results[0];
      if (ok) {
        t.equal(r.status, 'applied', `${type}.${field} ${what} (${JSON.stringify(value).slice(0, 40)}) is applied: ${r.error ?? ''}`);
      } else {
        t.match(r, { status: 'rejected', code: 400, index: 0 }, `${type}.${field} ${what} is rejected`);
        t.match(r.error, errorPath[field] ?? new RegExp(`^events\\[0\\]\\.${field} `), `${type}.${field} ${what}: "${r.error}" names the field`);
      }
    }
  }
});

t.test('the envelope: id, citizenId, at, type, unknown fields, required fields', async (t) => {
  const v = (over: object) => vital('ENV', { heartRate: 60, ...over }, now);
  const cases: [string, object, RegExp][] = [
    ['id too long', v({ id: s(65) }), /^events\[0\]\.id /],
    ['id with a space', v({ id: 'a b' }), /^events\[0\]\.id may contain only/],
    ['no id', { type: 'vitals', citizenId: 'ENV', at: now, heartRate: 60 }, /^events\[0\]\.id is required/],
    ['citizenId empty', v({ citizenId: '' }), /^events\[0\]\.citizenId /],
    ['citizenId of 65', v({ citizenId: s(65) }), /^events\[0\]\.citizenId /],
    ['at before 2020', v({ at: Date.UTC(2019, 11, 31, 23, 59, 59, 999) }), /^events\[0\]\.at must be from 2020-01-01 to 24 h from now$/],
    ['at before 2020 in ISO', v({ at: '2019-12-31T23:59:59.999Z' }), /^events\[0\]\.at must be from 2020-01-01/],
    ['at no ISO time', v({ at: '2026-02-30T10:00:00Z' }), /^events\[0\]\.at must be an ISO 8601 time/],
    ['at an ISO date without time', v({ at: '2026-11-20' }), /^events\[0\]\.at must be an ISO 8601 time/],
    ['at 25 h ahead', v({ at: now + 25 * 3600_000 }), /^events\[0\]\.at /],
    ['at fractional', v({ at: now + 0.5 }), /^events\[0\]\.at must be whole epoch milliseconds/],
    ['at digits in a string', v({ at: String(now) }), /^events\[0\]\.at must be an ISO 8601 time .* or epoch milliseconds as a number$/],
    ['unknown type', v({ type: 'teleport' }), /^events\[0\]\.type "teleport" is unknown: it must be one of patient_admitted, .*imaging/],
    ['type missing', { id: 'x', citizenId: 'ENV', at: now }, /^events\[0\]\.type is required/],
    ['type not a string', v({ type: 7 }), /^events\[0\]\.type must be one of/],
    ['unknown field', v({ pulse: 60 }), /^events\[0\] has an unknown field pulse/],
    ['a vital sample without a value', { id: 'x', type: 'vitals', citizenId: 'ENV', at: now }, /^events\[0\] needs at least one of heartRate/],
    ['a heart rate of 80.5', v({ heartRate: 80.5 }), /^events\[0\]\.heartRate must be an integer/],
    ['an injury without bodyPart', { id: 'x', type: 'injury_added', citizenId: 'ENV', at: now, injuryId: 'i', kind: 'stab', severity: 1 }, /^events\[0\]\.bodyPart is required/],
    ['a bad body part', { id: 'x', type: 'injury_added', citizenId: 'ENV', at: now, injuryId: 'i', bodyPart: 'tail', kind: 'stab', severity: 1 }, /^events\[0\]\.bodyPart must be one of head, neck/],
    ['injury_changed without a change', { id: 'x', type: 'injury_changed', citizenId: 'ENV', at: now, injuryId: 'i' }, /^events\[0\] needs at least one of severity, bleeding, state/],
    ['a bad rhythm', { id: 'x', type: 'ecg', citizenId: 'ENV', at: now, ...ecg, rhythm: 'jazz' }, /^events\[0\]\.rhythm must be one of sinus/],
    ['an ECG sample of 10.5 mV', { id: 'x', type: 'ecg', citizenId: 'ENV', at: now, ...ecg, samples: [0, 10.5] }, /^events\[0\]\.samples\[1\] must be at most 10/],
    ['a negative substance level', { id: 'x', type: 'lab_toxicology', citizenId: 'ENV', at: now, substances: { thc: -1 } }, /^events\[0\]\.substances\.thc must be at least 0/],
    ['a level over 1e6', { id: 'x', type: 'lab_toxicology', citizenId: 'ENV', at: now, substances: { thc: 1e6 + 1 } }, /^events\[0\]\.substances\.thc must be at most 1000000/],
    ['a substance name of 41', { id: 'x', type: 'lab_toxicology', citizenId: 'ENV', at: now, substances: { [s(41)]: 1 } }, /^events\[0\]\.substances\.x+ is not a valid name/],
    ['treatment result unknown', { id: 'x', type: 'treatment_applied', citizenId: 'ENV', at: now, ...treatment, result: 'meh' }, /^events\[0\]\.result must be one of success, partial, failed/],
    ['an unknown field of by', { id: 'x', type: 'treatment_applied', citizenId: 'ENV', at: now, ...treatment, by: { name: 'a', rank: 'x' } }, /^events\[0\]\.by has an unknown field rank/],
    ['imaging modality mri', { id: 'x', type: 'imaging', citizenId: 'ENV', at: now, modality: 'mri', bodyPart: 'head', image: 'AAAA' }, /^events\[0\]\.modality must be one of xray, ct/],
    ['a NUL in a note', { id: 'x', type: 'patient_discharged', citizenId: 'ENV', at: now, note: 'a\u0000b' }, /^events\[0\]\.note must not contain NUL/],
    ['an event that is a string', 'vitals' as unknown as object, /^events\[0\] must be an object/],
    ['an event that is null', null as unknown as object, /^events\[0\] must be an object/],
  ];
  for (const [what, event, message] of cases) {
    const res = await post([event]);
    t.equal(res.status, 200, what);
    t.match(res.body, { applied: 0, rejected: 1 }, what);
    t.match(res.body.results[0], { index: 0, status: 'rejected', code: 400 }, what);
    t.match(res.body.results[0].error, message, `${what}: ${res.body.results[0].error}`);
  }
  const echoed = await post([v({ heartRate: 999 }), v({ id: 'bad id' })]);
  t.equal(echoed.body.results[0].id.startsWith('v-'), true, 'a valid id is echoed on a rejected event');
  t.equal(echoed.body.results[1].id, null, 'an invalid id is echoed as null');
  t.equal(echoed.body.results[1].index, 1);
});

t.test('whole-request 400s: not {events: [...]}, no events, more than 500', async (t) => {
  const ev = (i: number) => ({ id: `many-${i}`, type: 'vitals', citizenId: 'MANY', at: now, heartRate: 60 });
  assertError(t, await post([]), 400, 'no events', /events needs 1\.\.500/);
  assertError(t, await post(Array.from({ length: 501 }, (_, i) => ev(i))), 400, '501 events', /at most 500/);
  assertError(t, await api('POST', '/medic/events', { body: { events: 'x' } }), 400, 'events not an array');
  assertError(t, await api('POST', '/medic/events', { body: { events: [ev(0)], more: 1 } }), 400, 'another field', /more/);
  assertError(t, await api('POST', '/medic/events', { body: [ev(0)] }), 400, 'a bare array');
  assertError(t, await api('POST', '/medic/events', { raw: '{"events": [', contentType: 'application/json' }), 400, 'broken JSON');
  const ok = await post(Array.from({ length: 500 }, (_, i) => ev(i)));
  t.equal(ok.status, 200, '500 events are one batch');
  t.equal(ok.body.applied, 500);
});
