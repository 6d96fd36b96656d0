import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from 'playwright-core';
import { spawnNode, type BenchChild } from './procs.ts';
import { arm, arrival, type Want } from './alarm-pages.ts';

const file = (rel: string) => new URL(rel, import.meta.url).pathname;

/** One alarm of the run: a new sheet with its own keyword and address. */
export interface Round { n: number; keyword: string; street: string }

/**
 * A crew device as the bench sees it: armed for a round before the alarm, then asked when it
 * showed the round (the device's own clock reading, see alarm-clock.ts), then whether it is
 * quiet again after the reset.
 */
export interface Device {
  name: string;
  arm(round: Round): Promise<void>;
  /** When the device showed keyword and address (`at`), and for a page the next frame's start; null: not yet. */
  arrived(): Promise<{ at: number; frame?: number | null } | null>;
  quiet(): Promise<boolean>;
}

/** A page timed by its probe (alarm-pages.ts); `want` says what showing the round means on it. */
export function pageDevice(name: string, page: Page, want: (r: Round) => Want, quiet: (page: Page) => Promise<boolean> = async () => true): Device {
  return {
    name,
    arm: (r) => arm(page, want(r)),
    arrived: async () => {
      const a = await arrival(page);
      return a && { at: a.dom, frame: a.frame };
    },
    quiet: () => quiet(page),
  };
}

type GameEvent = { event: 'alarm' | 'cleared' | 'error'; callsign?: string; keyword?: string; message?: string; at?: number };

/**
 * The game (alarm-game.ts in a child on `cpu`): the `alarm` event of `callsign` with the round's
 * keyword; quiet once the last event of every callsign it heard of is `cleared`.
 */
export async function gameDevice(start: (child: BenchChild) => BenchChild, base: string, apiKey: string, callsign: string, cpu: number, errors: string[]): Promise<Device> {
  const child = start(spawnNode(file('./alarm-game.ts'), { cpu, ipc: true, env: { BENCH_BASE_URL: base, BENCH_API_KEY: apiKey } }));
  const events: GameEvent[] = [];
  child.proc.on('message', (m: GameEvent) => {
    if (m?.event === 'error') errors.push(`game: ${m.message}`);
    else if (m?.event) events.push(m);
  });
  await child.firstMessage;
  let since = 0;
  let keyword = '';
  return {
    name: 'game (watchAlarms)',
    arm: async (r) => {
      since = events.length;
      keyword = r.keyword;
    },
    arrived: async () => {
      const e = events.slice(since).find((x) => x.event === 'alarm' && x.callsign === callsign && x.keyword === keyword);
      return e ? { at: e.at! } : null;
    },
    quiet: async () => {
      const last = new Map(events.map((e) => [e.callsign, e.event]));
      return [...last.values()].every((e) => e === 'cleared');
    },
  };
}

/**
 * The terminal alarm client (alarm-terminal.ts: the CLI with time-stamped lines) in a child on
 * `cpu`, signed in with `link`, tone through `true` (nothing plays), no speech. It shows the
 * round once a line with the keyword and one with the street came after the arm; the later one counts.
 */
export async function terminalDevice(start: (child: BenchChild) => BenchChild, link: string, cpu: number, closers: (() => unknown)[]): Promise<Device> {
  const dir = mkdtempSync(join(tmpdir(), 'dt-bench-alarm-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  const child = start(spawnNode(file('./alarm-terminal.ts'), {
    cpu, args: [link, '--player', 'true', '--no-speech', '--lang', 'de', '--state', join(dir, 'alarm.json')],
  }));
  const lines: { at: number; text: string }[] = [];
  let ready: () => void = () => {};
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  createInterface({ input: child.proc.stdout! }).on('line', (line) => {
    const cut = line.indexOf(' ');
    lines.push({ at: Number(line.slice(0, cut)), text: line.slice(cut + 1) });
    if (line.includes('Alarm bereit')) ready();
  });
  const exited = new Promise<never>((_, reject) => child.proc.once('exit', (code) => reject(new Error(
    `the terminal alarm client exited (${code}):\n${[...lines.map((l) => l.text), ...child.stderr].slice(-20).join('\n')}`))));
  exited.catch(() => {});
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the terminal alarm client was not ready within 30 s:\n${lines.map((l) => l.text).join('\n')}`)), 30_000).unref());
  await Promise.race([isReady, exited, timeout]);
  let since = 0;
  let round: Round | null = null;
  return {
    name: 'terminal (alarm CLI)',
    arm: async (r) => {
      since = lines.length;
      round = r;
    },
    arrived: async () => {
      const after = lines.slice(since);
      const keyword = after.find((l) => l.text.includes(round!.keyword));
      const street = after.find((l) => l.text.includes(round!.street));
      return keyword && street ? { at: Math.max(keyword.at, street.at) } : null;
    },
    quiet: async () => true,
  };
}
