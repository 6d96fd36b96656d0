/**
 * EXPLAIN ANALYZE of the medic ingest's duplicate check at scale (not part of `npm run bench`):
 *   node --import tsx bench/lib/medic-explain.ts [samples=1000000] [stale]
 * Seeds a fresh database with `samples` vital samples and a tenth as many events in one guild, then
 * plans 100 ids (85 stored samples, 10 stored events, 5 new) as the ingest does (`lateral`: the
 * product's own statement, store.ts ingestReads, recorded when it runs — one probe of the id index
 * per id and table) and as it did before (`any`, kept here as text: it is history), custom and
 * generic. `stale`: statistics taken when the table held 100 rows of another guild (autovacuum off).
 */
import { insertGuild } from '../../server/domains/guilds/store.ts';
import { ingestReads } from '../../server/domains/medic/store.ts';
import { benchDatabase } from './db.ts';
import { captureStatements } from './stats-explain.ts';
const N = Number(process.argv[2] ?? 1_000_000);
const db = await benchDatabase();
const G = '900000000000000020';
try {
  await insertGuild(db.sql, G, 'B');
  const ids = [...Array.from({ length: 85 }, (_, i) => `v-${N - 1000 + i}`), ...Array.from({ length: 10 }, (_, i) => `e-${N / 10 - 50 + i}`), ...Array.from({ length: 5 }, (_, i) => `new-${i}`)];
  // The ingest's statement and parameters ($1 guild, $2 ids; no citizens or injuries), recorded on the still empty tables.
  const ingest = (await captureStatements(db.url, (deps) => ingestReads(deps.sql, G, ids, [], []))).find((s) => /medic_vitals/.test(s.text));
  if (!ingest) throw new Error('ingestReads sent no statement reading medic_vitals');
  await insertGuild(db.sql, '900000000000000021', 'C');
  // 1000 files, N vitals in guild G, N/10 in another guild, N/10 events
  await db.sql.unsafe(`insert into medic_files (guild_id, citizen_id, opened_at, last_event_at) select '${G}', 'c'||g, 0, 0 from generate_series(1,1000) g`);
  await db.sql.unsafe(`insert into medic_files (guild_id, citizen_id, opened_at, last_event_at) select '900000000000000021', 'c'||g, 0, 0 from generate_series(1,10) g`);
  const [{ min }] = await db.sql.unsafe(`select min(id) from medic_files where guild_id='${G}'`);
  await db.sql.unsafe(`insert into medic_vitals (guild_id, file_id, at, event_id, heart_rate) select '${G}', ${min} + g % 1000, g, 'v-'||g, 80 from generate_series(1,${N}) g`);
  if (process.argv[3] === 'stale') { // statistics from when the table held 100 rows of another guild; one connection (temp table)
    await db.sql.begin(async (tx) => {
      await tx.unsafe(`create temp table keep on commit drop as select * from medic_vitals`);
      await tx.unsafe(`truncate medic_vitals`);
      await tx.unsafe(`insert into medic_vitals (guild_id, file_id, at, event_id) select '900000000000000021', (select min(id) from medic_files where guild_id='900000000000000021'), g, 'o-'||g from generate_series(1,100) g`);
      await tx.unsafe(`analyze medic_vitals`);
      await tx.unsafe(`alter table medic_vitals set (autovacuum_enabled = off)`);
      await tx.unsafe(`insert into medic_vitals select * from keep`);
    });
  }
  await db.sql.unsafe(`insert into medic_events (guild_id, event_id, file_id, citizen_id, type, at, data) select '${G}', 'e-'||g, ${min} + g % 1000, 'c', 'injury_added', g, '{}' from generate_series(1,${N / 10}) g`);
  const literal = (v: unknown) => `'${String(v).replace(/'/g, "''")}'`;
  const forms: Record<string, { text: string; args: string }> = {
    any: { // the duplicate check before the lateral form (history, not the product's text)
      text: `select event_id from medic_events where guild_id = $1 and event_id = any($2::text[]) union all select event_id from medic_vitals where guild_id = $1 and event_id = any($2::text[])`,
      args: ingest.params.slice(0, 2).map(literal).join(', '),
    },
    lateral: { text: ingest.text, args: ingest.params.map(literal).join(', ') },
  };
  const show = async (label: string) => {
    for (const mode of ['force_custom_plan', 'force_generic_plan']) for (const [name, q] of Object.entries(forms)) {
      await db.sql.begin(async (tx) => {
        await tx.unsafe(`set local plan_cache_mode = ${mode}`);
        await tx.unsafe(`prepare p_${name} as ${q.text}`);
        const rows = await tx.unsafe(`explain (analyze, buffers, costs off, summary on) execute p_${name}(${q.args})`);
        await tx.unsafe(`deallocate p_${name}`);
        const plan = rows.map((r) => r['QUERY PLAN'] as string).map((l) => l.replace(/'\{[^}]*\}'/g, "'{…}'"));
        console.log(`--- ${label} / ${mode} / ${name}\n${plan.join('\n')}`);
      });
    }
  };
  await show(`${N} rows, ${process.argv[3] === 'stale' ? 'statistics from 100 rows of another guild' : 'never analyzed'}`);
  if (process.argv[3] !== 'stale') { await db.sql.unsafe('analyze medic_vitals; analyze medic_events'); await show(`${N} rows, analyzed`); }
} finally { await db.close(); }
