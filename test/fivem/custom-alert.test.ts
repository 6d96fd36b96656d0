import t from 'tap';
import fc from 'fast-check';
import { callOfCustomAlert } from '../../fivem/server/custom-alert.ts';
import { ExportError } from '../../fivem/server/results.ts';
import { ReportCall } from '../../server/domains/calls/schema.ts';

// Issue 31: ps-dispatch's CustomAlert payload mapped onto our call report. Whatever a client sends,
// the mapping gives either a clear ExportError (400) or a report the server's own schema accepts.
t.test('a ps-dispatch alert becomes a call', async (t) => {
  const call = callOfCustomAlert({
    message: 'Schüsse gemeldet', codeName: 'shooting', code: '10-11', icon: 'fas fa-gun', priority: 2,
    coords: { x: 25.5, y: -1347.25, z: 29.5 }, street: 'Innocence Blvd', gender: 'männlich', camId: 12,
    firstColor: 'Rot', model: 'Sultan', plate: 'AB 123', jobs: ['leo', 'ems'], sprite: 110, radius: 0, flash: false,
  }, 'ps-dispatch', 1_700_000_000_000);
  t.match(call, {
    externalId: /^ps-shooting-[0-9a-z]+-[0-9a-z]+$/, source: 'ps-dispatch', kind: 'alarm', priority: 2, title: '10-11 Schüsse gemeldet',
    location: { x: 25.5, y: -1347.25, street: 'Innocence Blvd' },
    message: 'Geschlecht: männlich · Fahrzeug: Sultan · Kennzeichen: AB 123 · Farbe: Rot · Kamera: 12 · Für: leo, ems',
  });
  t.notOk('caller' in call);
  t.ok(ReportCall.safeParse(call).success, 'the server accepts it');
  const again = callOfCustomAlert({ message: 'Schüsse gemeldet', codeName: 'shooting' }, 'x', 1_700_000_000_000);
  t.not(again.externalId, call.externalId, 'every alert is a new call');
});

t.test('a colleague in danger is a panic call; priority 1 stays 1; dispatchCode as codeName', async (t) => {
  t.match(callOfCustomAlert({ message: 'Officer Down', code: '10-99' }, 'r'), { kind: 'panik', priority: 1 });
  t.match(callOfCustomAlert({ message: 'x', dispatchCode: 'officerdown', priority: 2 }, 'r'), { kind: 'panik', priority: 1, externalId: /^ps-officerdown-/ });
  t.match(callOfCustomAlert({ message: 'Person verletzt', code: '10-69', priority: 1 }, 'r'), { kind: 'alarm', priority: 1 });
  t.match(callOfCustomAlert({ message: 'x', priority: 7 }, 'r'), { priority: 2 }, 'an unknown priority: normal');
  t.match(callOfCustomAlert({ code: '10-80', street: 'Alta Street' }, 'r'), { title: '10-80', location: 'Alta Street' }, 'a street without coords: a text location');
});

t.test('not an alert: a clear 400', async (t) => {
  for (const [payload, message] of [
    [null, /needs a table/], ['Schüsse', /needs a table/], [[1, 2], /needs a table/], [{}, /message, a code or a codeName/],
    [{ message: 'x', coords: { x: 1 } }, /coords must have numbers x and y/], [{ message: 'x', coords: { x: 1, y: 1e9 } }, /coords must have numbers/],
  ] as const) {
    t.throws(() => callOfCustomAlert(payload, 'r'), { message, status: 400 }, JSON.stringify(payload));
  }
});

t.test('any payload: a report the server accepts, or an ExportError', async (t) => {
  const anyText = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ maxLength: 50, unit: 'binary' }), fc.integer(), fc.constant(null), fc.boolean());
  const payload = fc.record({
    message: anyText, code: anyText, codeName: anyText, dispatchCode: anyText, priority: fc.oneof(fc.integer(), fc.double(), anyText),
    coords: fc.oneof(fc.constant(undefined), fc.record({ x: fc.oneof(fc.double(), anyText), y: fc.oneof(fc.double(), anyText), z: fc.double() })),
    street: anyText, gender: anyText, model: anyText, plate: anyText, firstColor: anyText, camId: anyText, name: anyText, callsign: anyText,
    jobs: fc.oneof(fc.array(anyText, { maxLength: 5 }), anyText), weapon: anyText,
  }, { requiredKeys: [] });
  fc.assert(fc.property(payload, fc.string({ maxLength: 100 }), (p, reporter) => {
    let call;
    try {
      call = callOfCustomAlert(p, reporter);
    } catch (err) {
      return err instanceof ExportError && err.status === 400;
    }
    const parsed = ReportCall.safeParse(call);
    if (!parsed.success) throw new Error(`${JSON.stringify(call)}: ${parsed.error.message}`);
    return true;
  }), { numRuns: 500 });
  t.pass('500 payloads');
});
