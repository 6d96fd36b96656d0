/**
 * The medic queue's write-ahead log on disk (client-sdk/medic/wal.ts), without a server: what a
 * restart finds after appends, acks, dropped samples, a torn last write, segment deletion and a
 * rewrite that crashed half-way.
 */
import t from 'tap';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wal } from '../../client-sdk/medic/wal.ts';

const rec = (seq: number) => ({ seq, json: JSON.stringify({ id: `e-${seq}`, type: seq % 3 ? 'vitals' : 'injury_added', citizenId: 'C1', note: 'x'.repeat(40) }) });
const dirs: string[] = [];
t.teardown(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'dt-wal-'));
  dirs.push(dir);
  return dir;
};
const segments = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('seg-')).sort();

t.test('appended records come back in order after a restart; acked ones do not', async (t) => {
  const dir = freshDir();
  const wal = new Wal(dir);
  t.same(wal.load().records, [], 'empty at first');
  for (let s = 1; s <= 10; s++) wal.append([rec(s)]);
  wal.ack(4);
  // no close: a kill -9 leaves the file as the writes left it
  const again = new Wal(dir).load();
  t.same(again.records.map((r) => r.seq), [5, 6, 7, 8, 9, 10], 'only what was not acknowledged');
  t.same(again.records[0], rec(5), 'the event text is kept byte for byte');
  t.equal(again.ackSeq, 4);
  t.equal(again.lastSeq, 10);
});

t.test('dropped samples stay dropped after a restart', async (t) => {
  const dir = freshDir();
  const wal = new Wal(dir);
  wal.load();
  wal.append([rec(1), rec(2), rec(3)]);
  wal.append([rec(4)], [1, 2]);
  wal.append([], [4]);
  const again = new Wal(dir).load();
  t.same(again.records.map((r) => r.seq), [3], 'tombstoned seqs are not restored');
  t.equal(again.lastSeq, 4, 'a dropped last record still counts for the sequence');
});

t.test('a torn last line is cut off and appending goes on cleanly', async (t) => {
  const dir = freshDir();
  const wal = new Wal(dir);
  wal.load();
  wal.append([rec(1), rec(2)]);
  const [seg] = segments(dir);
  appendFileSync(join(dir, seg), 'E3 {"id":"e-3","ty'); // the process died inside write(2)
  const w2 = new Wal(dir);
  const loaded = w2.load();
  t.same(loaded.records.map((r) => r.seq), [1, 2], 'the torn record is gone (its enqueue never returned)');
  t.equal(loaded.lastSeq, 2, 'its seq is free again');
  t.equal(loaded.corrupt, 0);
  w2.append([rec(3)]);
  t.same(new Wal(dir).load().records.map((r) => r.seq), [1, 2, 3], 'the next record is whole');
  t.notMatch(readFileSync(join(dir, seg), 'utf8'), /"ty(?!pe)/, 'no fragment left in the file');
});

t.test('segments wholly acknowledged are deleted; the sequence survives them', async (t) => {
  const dir = freshDir();
  const wal = new Wal(dir, { segmentBytes: 500 });
  wal.load();
  for (let s = 1; s <= 40; s++) wal.append([rec(s)]);
  const before = segments(dir).length;
  t.ok(before > 5, `rotated into ${before} segments`);
  wal.ack(40);
  t.equal(segments(dir).length, 1, 'only the open segment is left');
  const again = new Wal(dir, { segmentBytes: 500 }).load();
  t.same(again.records, [], 'nothing to resend');
  t.equal(again.lastSeq, 40, 'numbering goes on after 40');
});

t.test('a rewrite keeps only live records; a crash before its rename keeps the old segments', async (t) => {
  const dir = freshDir();
  const wal = new Wal(dir, { segmentBytes: 400 });
  wal.load();
  for (let s = 1; s <= 30; s++) wal.append([rec(s)]);
  const sealedMax = wal.sealedMaxSeq();
  const keep = [];
  for (let s = 1; s <= sealedMax; s++) if (s % 5 === 0) keep.push(rec(s));
  wal.append([], Array.from({ length: sealedMax }, (_, i) => i + 1).filter((s) => s % 5 !== 0));

  // A crash after writing the tmp file, before the rename: the tmp is discarded, old segments rule.
  const tmpName = `${segments(dir)[0]}.tmp`;
  writeFileSync(join(dir, tmpName), 'C1 999\nE1 {"half":');
  const crashed = new Wal(dir, { segmentBytes: 400 }).load();
  t.same(crashed.records.map((r) => r.seq), [...keep.map((r) => r.seq), ...Array.from({ length: 30 - sealedMax }, (_, i) => sealedMax + 1 + i)], 'same records as before the crash');
  t.notOk(readdirSync(dir).includes(tmpName), 'the tmp file was removed');

  const w2 = new Wal(dir, { segmentBytes: 400 });
  w2.load();
  const sealedBefore = segments(dir).length - 1;
  w2.rewrite(keep);
  t.ok(sealedBefore > 1 && segments(dir).length === 2, `${sealedBefore} sealed segments became one`);
  const after = new Wal(dir, { segmentBytes: 400 }).load();
  t.same(after.records.map((r) => r.seq), crashed.records.map((r) => r.seq), 'the same live records after the rewrite');
  t.equal(after.lastSeq, 30);

  // A crash after the rename, before the old segments were deleted: the header says which it replaces.
  const dir2 = freshDir();
  const w3 = new Wal(dir2, { segmentBytes: 400 });
  w3.load();
  for (let s = 1; s <= 30; s++) w3.append([rec(s)]);
  const names = segments(dir2);
  const lastSealed = names[names.length - 2];
  const firstN = Number(names[0].slice(4, 12));
  writeFileSync(join(dir2, lastSealed), `C${firstN} ${w3.sealedMaxSeq()}\nE5 ${rec(5).json}\n`);
  const reloaded = new Wal(dir2, { segmentBytes: 400 }).load();
  t.same(reloaded.records.map((r) => r.seq).slice(0, 1), [5], 'the rewritten segment replaced the older ones');
  t.equal(segments(dir2).length, 2, 'the replaced segments were deleted');
  t.equal(reloaded.lastSeq, 30);
});

t.test('an open segment whose records are all acknowledged is replaced once it is big', async (t) => {
  const dir = freshDir();
  const wal = new Wal(dir);
  wal.load();
  const big = (seq: number) => ({ seq, json: JSON.stringify({ id: `e-${seq}`, pad: 'y'.repeat(1000) }) });
  for (let s = 1; s <= 100; s++) wal.append([big(s)]);
  wal.ack(50);
  t.equal(segments(dir).length, 1, 'half acknowledged: the segment stays');
  wal.ack(100);
  const left = segments(dir);
  t.equal(left.length, 1, 'one segment');
  t.equal(readFileSync(join(dir, left[0]), 'utf8'), '', 'a fresh, empty one');
  const again = new Wal(dir).load();
  t.same([again.records.length, again.lastSeq], [0, 100], 'nothing to resend, numbering goes on');
});
