import t from 'tap';
import { freshDatabase } from '../helpers/db.ts';
import { jsonSql, sqlElements, sqlJson, sqlNumber, sqlSpread, sqlText, sqlWhen, type JsonShape } from '../../server/store/json-text.ts';

const db = await freshDatabase();
t.teardown(db.drop);
const { sql } = db;

/** The shape built by PostgreSQL over one row `r` with columns name, n, flag, tags, data. */
async function built(shape: JsonShape, row: { name: string | null; n: number | null; flag: boolean | null; tags: string[]; data: unknown }) {
  const [res] = await sql.unsafe(
    `select ${jsonSql(shape)} as j, pg_typeof(${jsonSql(shape)})::text as type
     from (select $1::text as name, $2::int as n, $3::boolean as flag, $4::text[] as tags, $5::json as data) r`,
    [row.name, row.n, row.flag, row.tags, row.data] as never[], // $5::json takes the value itself
  );
  t.equal(res.type, 'json', 'a json value');
  return res.j as unknown;
}

const awkward = `O'Brien "Doc" 100% \\ back\\slash\n\ttab \u0001 ünï ✓ 🚑 %1$s`;

t.test('constants and values land as JSON, whatever characters the values hold', async (t) => {
  const shape: JsonShape = {
    name: sqlText('r.name'),
    again: sqlText('r.name'),
    n: sqlNumber('r.n'),
    flag: sqlNumber('r.flag'),
    data: sqlJson('r.data'),
    'a "quoted" key with 50%': ["it's", 1.5, -2, true, false, null, { nested: [] }],
  };
  const row = { name: awkward, n: 42, flag: true, tags: [], data: { x: [1, 'two'] } };
  t.same(await built(shape, row), {
    name: awkward, again: awkward, n: 42, flag: true, data: { x: [1, 'two'] },
    'a "quoted" key with 50%': ["it's", 1.5, -2, true, false, null, { nested: [] }],
  });
  t.same(await built(shape, { name: null, n: null, flag: false, tags: [], data: null }), {
    name: null, again: null, n: null, flag: false, data: null,
    'a "quoted" key with 50%': ["it's", 1.5, -2, true, false, null, { nested: [] }],
  }, 'SQL NULL is null, not an empty or broken document');
  t.match(jsonSql(shape), /^format\('.*%1\$s.*%1\$s/s, 'a value used twice is computed once');
  t.equal(jsonSql({ a: [1, { b: 'c' }] }), `'{"a":[1,{"b":"c"}]}'::json`, 'a constant shape is a constant');
});

t.test('sqlSpread and sqlWhen add elements after the fixed ones, none when there are none', async (t) => {
  const shape: JsonShape = {
    list: [{ op: 'first' }, sqlSpread('t.ops')],
    maybe: [0, sqlWhen('r.n > 1', { by: sqlNumber('-r.n') })],
  };
  const build = async (tags: string[], n: number) => (await sql.unsafe(
    `select ${jsonSql(shape)} as j from (select $1::text as name, $2::int as n) r,
       (select ${sqlElements({ op: 'tag', key: sqlText('tag'), of: sqlText('$1::text') }, 'tag desc')} as ops from unnest($3::text[]) tag) t`,
    ['x', n, tags] as never[],
  ))[0].j;
  t.same(await build([], 1), { list: [{ op: 'first' }], maybe: [0] });
  const odd = `z ${awkward}`; // sorts last in any collation
  t.same(await build(['a', odd, 'b'], 3), {
    list: [{ op: 'first' }, { op: 'tag', key: odd, of: 'x' }, { op: 'tag', key: 'b', of: 'x' }, { op: 'tag', key: 'a', of: 'x' }],
    maybe: [0, { by: -3 }],
  }, 'in the order given, each element escaped');
});

t.test('shapes that cannot be built are refused when the statement is built', async (t) => {
  t.throws(() => jsonSql([sqlWhen('true', 1)]), /must follow a fixed element/);
  t.throws(() => jsonSql({ x: Number.NaN }), /not a JSON number/);
  t.throws(() => jsonSql({ x: Infinity }), /not a JSON number/);
});
