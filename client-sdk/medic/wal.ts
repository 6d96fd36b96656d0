/**
 * The medic queue's write-ahead log: numbered segment files of one record per line, plus an `ack`
 * file. Node built-ins only (it runs in FiveM's Node 16).
 *
 *   E<seq> <event json>\n   an event          D<seq>\n   a dropped vital sample (pressure)
 *   C<n> <seq>\n            first line of a rewritten segment: it replaces segments n .. its own number,
 *                           whose highest seq was <seq> (so seqs are never reused)
 *
 * Guarantees:
 * - `append` is one write(2): once it returns, the records survive a kill -9 of the process (they are
 *   in the kernel's page cache); `checkpoint` fsyncs them against power loss.
 * - `ack(seq)` stores "every record up to seq is done" by write-tmp + rename (atomic). Losing it only
 *   means a resend, which the server's idempotent event ids make harmless. Segments wholly at or below
 *   the ack are then deleted (the open one too, once it holds 64 KiB: a fresh one takes its place).
 * - `rewrite` replaces the sealed segments by one holding only the given live records (tmp + fsync +
 *   rename); until the rename lands the old segments stay authoritative.
 * - A torn last line (the process died inside a write) is cut off on load: its enqueue never returned.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';

export interface WalRecord { seq: number; json: string }

export interface LoadedWal {
  /** Records above the ack, in seq order, without the dropped ones. */
  records: WalRecord[];
  ackSeq: number;
  /** The highest seq ever written (records, tombstones or ack). */
  lastSeq: number;
  /** Lines that were unreadable (not the torn tail), skipped. */
  corrupt: number;
}

interface Segment { n: number; path: string; maxSeq: number; bytes: number }

/** An open segment this big whose records are all acknowledged is replaced by a fresh one. */
const IDLE_ROTATE_BYTES = 64 * 1024;
const SEGMENT = /^seg-(\d{8})\.wal$/;
const segName = (n: number) => `seg-${String(n).padStart(8, '0')}.wal`;

export interface WalOptions {
  /** Start a new segment once the current one holds this many bytes (default 4 MiB). */
  segmentBytes?: number;
}

export class Wal {
  private segments: Segment[] = [];
  private fd = -1;
  private dirty = false;
  /** Every byte this log wrote to disk (records, tombstones, ack files, rewrites): for the amplification figure. */
  bytesWritten = 0;
  private readonly segmentBytes: number;

  constructor(readonly dir: string, opts: WalOptions = {}) {
    this.segmentBytes = opts.segmentBytes ?? 4 * 1024 * 1024;
  }

  /** Reads what the log holds and opens it for appending. Call once. */
  load(): LoadedWal {
    fs.mkdirSync(this.dir, { recursive: true });
    let ackSeq = 0;
    try {
      const n = Number(fs.readFileSync(join(this.dir, 'ack'), 'utf8').trim());
      if (Number.isSafeInteger(n) && n >= 0) ackSeq = n;
    } catch { /* no ack yet */ }
    const names = fs.readdirSync(this.dir);
    for (const name of names) if (name.endsWith('.tmp')) fs.rmSync(join(this.dir, name), { force: true });
    let found = names.map((name) => SEGMENT.exec(name)).filter((m): m is RegExpExecArray => !!m)
      .map((m) => ({ n: Number(m[1]), path: join(this.dir, m[0]), maxSeq: 0, bytes: 0 }))
      .sort((a, b) => a.n - b.n);
    // A rewritten segment replaces the ones before it that it names (a crash may have left them behind).
    const texts = new Map<number, string>();
    for (const s of [...found].reverse()) {
      if (!found.includes(s)) continue;
      const text = fs.readFileSync(s.path, 'utf8');
      texts.set(s.n, text);
      const head = /^C(\d+) \d+\n/.exec(text);
      if (!head) continue;
      const from = Number(head[1]);
      for (const old of found.filter((o) => o.n >= from && o.n < s.n)) fs.rmSync(old.path, { force: true });
      found = found.filter((o) => !(o.n >= from && o.n < s.n));
    }
    const live = new Map<number, string>();
    const dropped = new Set<number>();
    let lastSeq = ackSeq, corrupt = 0;
    found.forEach((s, i) => {
      const text = texts.get(s.n)!;
      let at = 0;
      while (at < text.length) {
        const nl = text.indexOf('\n', at);
        if (nl < 0) { // torn tail: the write never completed, so its enqueue never returned
          if (i === found.length - 1) fs.truncateSync(s.path, Buffer.byteLength(text.slice(0, at)));
          else corrupt++;
          break;
        }
        const line = text.slice(at, nl);
        at = nl + 1;
        const m = /^([ECD])(\d+)(?: ([\s\S]*))?$/.exec(line);
        if (!m) { corrupt++; continue; }
        if (m[1] === 'C') {
          lastSeq = Math.max(lastSeq, Number(m[3]));
          continue;
        }
        const seq = Number(m[2]);
        lastSeq = Math.max(lastSeq, seq);
        s.maxSeq = Math.max(s.maxSeq, seq);
        if (m[1] === 'D') dropped.add(seq);
        else if (seq > ackSeq && m[3] !== undefined) live.set(seq, m[3]);
        else if (m[3] === undefined) corrupt++;
      }
      s.bytes = fs.statSync(s.path).size;
    });
    this.segments = found;
    const records = [...live].filter(([seq]) => !dropped.has(seq)).sort((a, b) => a[0] - b[0]).map(([seq, json]) => ({ seq, json }));
    const last = this.segments[this.segments.length - 1];
    if (!last || last.bytes >= this.segmentBytes) this.openSegment((last?.n ?? 0) + 1);
    else this.fd = fs.openSync(last.path, 'a');
    this.compact(ackSeq);
    return { records, ackSeq, lastSeq, corrupt };
  }

  /** One write(2) of the given records and tombstones; returns the bytes written. */
  append(records: WalRecord[], droppedSeqs: number[] = []): number {
    let text = '';
    for (const seq of droppedSeqs) text += `D${seq}\n`;
    for (const r of records) text += `E${r.seq} ${r.json}\n`;
    if (!text) return 0;
    const buf = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < buf.length) off += fs.writeSync(this.fd, buf, off, buf.length - off);
    const cur = this.current();
    cur.bytes += buf.length;
    for (const r of records) cur.maxSeq = Math.max(cur.maxSeq, r.seq);
    for (const s of droppedSeqs) cur.maxSeq = Math.max(cur.maxSeq, s);
    this.bytesWritten += buf.length;
    this.dirty = true;
    if (cur.bytes >= this.segmentBytes) this.rotate();
    return buf.length;
  }

  /** fsync of what was appended since the last checkpoint (sealed segments were synced when sealed). */
  checkpoint(): void {
    if (!this.dirty || this.fd < 0) return;
    fs.fsyncSync(this.fd);
    this.dirty = false;
  }

  /** Every record up to `seq` is done: stored atomically, then fully done segments are deleted. */
  ack(seq: number): void {
    const tmp = join(this.dir, 'ack.tmp');
    const text = `${seq}\n`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, join(this.dir, 'ack'));
    this.bytesWritten += text.length;
    // All of the open segment is done too: start a fresh one so the old can go (no fsync: nothing in it is needed).
    const cur = this.current();
    if (cur.maxSeq <= seq && cur.bytes >= IDLE_ROTATE_BYTES) this.rotate(false);
    this.compact(seq);
  }

  /** Bytes in sealed segments (all but the one being appended to). */
  sealedBytes(): number {
    return this.segments.slice(0, -1).reduce((sum, s) => sum + s.bytes, 0);
  }

  /** Highest seq held by a sealed segment (0 when none). */
  sealedMaxSeq(): number {
    return this.segments.slice(0, -1).reduce((max, s) => Math.max(max, s.maxSeq), 0);
  }

  /**
   * Replaces every sealed segment by one holding `live` (the records of those segments that are still
   * to be sent, in seq order): written to a tmp file, fsynced, renamed onto the last sealed segment's
   * name with a header naming the segments it replaces, then the others are deleted.
   */
  rewrite(live: WalRecord[]): void {
    const sealed = this.segments.slice(0, -1);
    if (sealed.length === 0) return;
    const first = sealed[0].n, target = sealed[sealed.length - 1];
    let text = `C${first} ${Math.max(...sealed.map((s) => s.maxSeq))}\n`;
    for (const r of live) text += `E${r.seq} ${r.json}\n`;
    const tmp = join(this.dir, `${segName(target.n)}.tmp`);
    const fd = fs.openSync(tmp, 'w');
    try {
      const buf = Buffer.from(text, 'utf8');
      let off = 0;
      while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
      fs.fsyncSync(fd);
      this.bytesWritten += buf.length;
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, target.path);
    for (const s of sealed.slice(0, -1)) fs.rmSync(s.path, { force: true });
    target.bytes = Buffer.byteLength(text);
    target.maxSeq = Math.max(...sealed.map((s) => s.maxSeq));
    this.segments = [target, this.current()];
  }

  close(): void {
    if (this.fd < 0) return;
    this.checkpoint();
    fs.closeSync(this.fd);
    this.fd = -1;
  }

  private current(): Segment {
    return this.segments[this.segments.length - 1];
  }

  /** Seals the open segment (fsynced unless nothing in it is still needed) and opens the next. */
  private rotate(fsync = true): void {
    if (fsync) fs.fsyncSync(this.fd);
    fs.closeSync(this.fd);
    this.dirty = false;
    this.openSegment(this.current().n + 1);
  }

  private openSegment(n: number): void {
    const path = join(this.dir, segName(n));
    this.fd = fs.openSync(path, 'a');
    this.segments.push({ n, path, maxSeq: 0, bytes: 0 });
  }

  /** Deletes sealed segments whose every record is at or below the ack. */
  private compact(ackSeq: number): void {
    while (this.segments.length > 1 && this.segments[0].maxSeq <= ackSeq) {
      fs.rmSync(this.segments[0].path, { force: true });
      this.segments.shift();
    }
  }
}
