/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements a stats answer runs, with the server's own SQL text:
 * the service runs once on a postgres.js connection whose `debug` hook records every statement and
 * its parameters, then each recorded statement is explained with those parameters. Nothing is
 * copied from store.ts, so the plans shown are the plans of the product's queries.
 */
import postgres from 'postgres';
import type { Deps } from '../../server/deps.ts';

export interface Captured { text: string; params: unknown[] }

/** Runs `fn` with deps whose `sql` records each statement; answers them in the order they were sent. */
export async function captureStatements(url: string, fn: (deps: Deps) => Promise<unknown>): Promise<Captured[]> {
  const captured: Captured[] = [];
  const sql = postgres(url, {
    max: 1, onnotice: () => {}, types: { bigint: postgres.BigInt }, transform: { undefined: null },
    debug: (_conn, text, params) => void captured.push({ text, params: [...params] }),
  });
  try {
    await fn({ sql } as unknown as Deps);
  } finally {
    await sql.end({ timeout: 1 });
  }
  return captured;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Heap Fetches'?: number;
  'Rows Removed by Filter'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

/** rows: returned by the scan; removed: read from the index (or table) and dropped by a filter, all loops together. */
export interface ScanSummary { node: string; relation: string; index: string | null; rows: number; removed: number; loops: number; heapFetches: number | null; hit: number; read: number }
export interface StatementPlan { label: string; ms: number; hit: number; read: number; scans: ScanSummary[] }

/** What a statement of the stats domain is, from its text. */
function labelOf(text: string): string {
  if (/from guilds where id/.test(text)) return 'clock settings';
  if (/unnest\(/.test(text)) return 'duty by bucket (trend series)';
  if (/group by user_id/.test(text)) return 'duty by person';
  if (/from people p/.test(text)) return 'people of the top rows';
  if (/min\(clock_in_at\)/.test(text)) return 'first shift';
  return text.replace(/\s+/g, ' ').trim().slice(0, 50);
}

function scansOf(node: PlanNode, out: ScanSummary[] = []): ScanSummary[] {
  if (/Scan$/.test(node['Node Type']) && node['Relation Name']) {
    out.push({
      node: node['Node Type'], relation: node['Relation Name'], index: node['Index Name'] ?? null,
      rows: Math.round((node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1)), loops: node['Actual Loops'] ?? 1,
      removed: Math.round((node['Rows Removed by Filter'] ?? 0) * (node['Actual Loops'] ?? 1)),
      heapFetches: node['Heap Fetches'] ?? null, hit: node['Shared Hit Blocks'] ?? 0, read: node['Shared Read Blocks'] ?? 0,
    });
  }
  for (const child of node.Plans ?? []) scansOf(child, out);
  return out;
}

/** EXPLAIN (ANALYZE, BUFFERS) of each statement, summarised: time, buffers, every scan with its index and rows. */
export async function explainStatements(sql: postgres.Sql<{}>, statements: Captured[]): Promise<StatementPlan[]> {
  const plans: StatementPlan[] = [];
  // postgres.js's own look-up of array types (once per connection) is not the product's
  for (const s of statements.filter((x) => !/pg_catalog\./.test(x.text))) {
    const [row] = await sql.unsafe(`explain (analyze, buffers, format json) ${s.text}`, s.params as never[], { prepare: false });
    const [explained] = row['QUERY PLAN'] as [{ Plan: PlanNode; 'Execution Time': number }];
    plans.push({
      label: labelOf(s.text), ms: explained['Execution Time'],
      hit: explained.Plan['Shared Hit Blocks'] ?? 0, read: explained.Plan['Shared Read Blocks'] ?? 0,
      scans: scansOf(explained.Plan),
    });
  }
  return plans;
}

const n = (x: number) => x.toLocaleString('en-US');

/** The plans as lines for the report; a sequential scan of shifts is called out. */
export function formatPlans(title: string, plans: StatementPlan[]): string {
  const lines = [title];
  plans.forEach((p, i) => {
    lines.push(`  #${i + 1} ${p.label.padEnd(30)} ${p.ms.toFixed(2).padStart(8)} ms   buffers hit ${n(p.hit)}, read ${n(p.read)}`);
    for (const s of p.scans) {
      const what = s.index ? `${s.node} using ${s.index}` : `${s.node} on ${s.relation}${s.relation === 'shifts' ? '   <-- reads the whole table' : ''}`;
      const fetches = s.heapFetches === null ? '' : `, heap fetches ${n(s.heapFetches)}`;
      const removed = s.removed ? ` (${n(s.rows + s.removed)} read, ${n(s.removed)} filtered out)` : '';
      lines.push(`       ${what.padEnd(48)} rows ${n(s.rows).padStart(7)}${removed}${s.loops > 1 ? ` over ${s.loops} loops` : ''}${fetches}, buffers ${n(s.hit + s.read)}`);
    }
  });
  return `${lines.join('\n')}\n`;
}

/** Whether any statement scanned the shifts table without an index. */
export const readsWholeShifts = (plans: StatementPlan[]) => plans.some((p) => p.scans.some((s) => s.relation === 'shifts' && !s.index));
