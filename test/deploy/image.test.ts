/**
 * The Dockerfile, carried out by hand (no Docker engine runs here): its build stage on a copy of
 * the build context as .dockerignore leaves it, its runtime stage as a folder holding exactly what
 * the stage copies, run as the stage's user with the stage's environment and command. What this
 * cannot show: Debian 13 and Node 24 (test/platform runs the server there), and `npm ci
 * --omit=dev` (node_modules here is the checkout's, dev dependencies included).
 */
import t from 'tap';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { freshDatabase } from '../helpers/db.ts';
import { dockerfileStages, dockerIgnored, execForm, repoRoot, stageEnv, type Stage } from '../helpers/dockerfile.ts';
import { freePort } from '../../server/store/embedded.ts';

const stages = dockerfileStages();
const runtime = stages.at(-1)!;
const ops = (stage: Stage, op: string) => stage.instructions.filter((i) => i.op === op).map((i) => i.args);
const stageNamed = (name: string) => stages.find((s) => s.name === name)!;
const start = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts.start as string;

t.test('the Dockerfile: Debian 13 with Node 24, built output, a user that is not root, ready checks', async (t) => {
  t.equal(stages[0].from, 'node:24-trixie-slim');
  const builder = stageNamed(runtime.instructions.find((i) => i.op === 'COPY' && /--from=\S+ \/app\/dist\b/.test(i.args))!.args.match(/--from=(\S+)/)![1]);
  t.match(ops(builder, 'RUN'), ['npm ci --no-audit --no-fund', 'npm run build'], 'the build stage installs everything and runs npm run build');
  const deps = stageNamed(runtime.instructions.find((i) => i.op === 'COPY' && /\/app\/node_modules/.test(i.args))!.args.match(/--from=(\S+)/)![1]);
  t.match(ops(deps, 'RUN').join(' '), /npm ci --omit=dev/, 'the runtime gets production dependencies only');
  const user = ops(runtime, 'USER');
  t.ok(user.length === 1 && !/^(root|0)(:|$)/.test(user[0]), `runs as ${user[0]}`);
  const env = stageEnv(stages, runtime);
  t.equal(env.HOST, '0.0.0.0', 'listens beyond loopback in a container');
  t.same(ops(runtime, 'VOLUME'), [env.DATA_DIR], 'DATA_DIR is a volume');
  const [health] = ops(runtime, 'HEALTHCHECK');
  t.match(execForm(health).join(' '), /\/api\/v1\/ready/, 'the health check asks for readiness');
  t.same(execForm(ops(runtime, 'CMD')[0]), start.split(' '), 'the command is npm start\'s');
});

t.test('the runtime stage, carried out by hand, serves the API and the board from the built output', async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'dt-image-'));
  t.teardown(() => rmSync(work, { recursive: true, force: true }));
  // Build stage: the context as .dockerignore leaves it; node_modules stands in for its `npm ci`.
  const context = join(work, 'context');
  copyContext(repoRoot, context);
  symlinkSync(join(repoRoot, 'node_modules'), join(context, 'node_modules'));
  const builder = stageNamed('build');
  for (const run of ops(builder, 'RUN').filter((r) => !/^npm ci\b/.test(r))) {
    try {
      execFileSync('sh', ['-c', run], { cwd: context, stdio: 'pipe', encoding: 'utf8', env: { PATH: process.env.PATH!, HOME: work, NPM_CONFIG_UPDATE_NOTIFIER: 'false' } });
    } catch (err) {
      throw new Error(`the build stage's ${run} failed: ${(err as { stderr: string }).stderr.trim()}`);
    }
  }

  // Runtime stage: exactly what it copies, owned by root and read-only to its user.
  const image = join(work, 'app');
  mkdirSync(image);
  chmodSync(work, 0o755);
  for (const copy of ops(runtime, 'COPY')) {
    const from = /--from=(\S+)/.exec(copy)?.[1];
    const paths = copy.replace(/--\S+\s+/g, '').split(/\s+/);
    const destArg = paths.pop()!;
    const dest = join(image, destArg);
    const intoDir = paths.length > 1 || destArg.endsWith('/') || destArg === '.';
    for (const src of paths) {
      // Docker's rules: a folder's contents go to dest; a file goes into dest/ or becomes dest.
      if (from && src === '/app/node_modules') { symlinkSync(join(repoRoot, 'node_modules'), dest); continue; } // for `npm ci --omit=dev`
      if (!from) t.notOk(dockerIgnored(src), `${src} is in the build context`);
      const source = from ? join(context, relative('/app', src)) : join(repoRoot, src);
      if (statSync(source).isDirectory()) cpSync(source, dest, { recursive: true });
      else {
        mkdirSync(intoDir ? dest : dirname(dest), { recursive: true });
        cpSync(source, intoDir ? join(dest, basename(source)) : dest);
      }
    }
  }
  t.same(ops(runtime, 'RUN'), ['mkdir /data && chown node:node /data'], 'the only RUN makes DATA_DIR (this test does that itself)');
  const sources = listFiles(image).filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts') && !f.endsWith('.d.mts'));
  t.same(sources, [], 'no TypeScript in the image: nothing compiles at run time');

  const dataDir = mkdtempSync(join(tmpdir(), 'dt-image-data-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const root = process.getuid?.() === 0;
  if (root) chownSync(dataDir, 1000, 1000); // the node user of the node images
  const db = await freshDatabase();
  t.teardown(db.drop);
  const port = await freePort();
  const env = {
    PATH: process.env.PATH!, HOME: dataDir, ...stageEnv(stages, runtime),
    // Loopback here (the image's 0.0.0.0 is for a container's network), this run's database.
    HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: db.url, DEMO: '0',
  };
  const asUser = root ? { uid: 1000, gid: 1000 } : {};
  // As in a container: `node` alone, without the hooks tap puts into NODE_OPTIONS of every child.
  const bare = (argv: string[]): [string, string[]] => ['env', ['-u', 'NODE_OPTIONS', ...argv.map((a) => (a === 'node' ? process.execPath : a))]];
  const command = execForm(ops(runtime, 'CMD')[0]);
  const server = spawn(...bare(command), { cwd: image, env, ...asUser, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  t.teardown(() => { if (server.exitCode === null) server.kill('SIGKILL'); return exited; });
  let out = '';
  server.stdout!.on('data', (d) => (out += d));
  server.stderr!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => { if (/listening on/.test(out)) { clearInterval(timer); resolve(); } }, 20);
    void exited.then(() => { clearInterval(timer); reject(new Error(`the image's command exited: ${out}`)); });
  });
  const base = `http://127.0.0.1:${port}`;
  t.equal((await fetch(`${base}/api/v1/ready`)).status, 200, 'ready');
  const page = await (await fetch(`${base}/dispatch`)).text();
  const script = /src="([^"]+\.js)"/.exec(page)?.[1];
  t.ok(script, 'the board page names its script');
  const asset = await fetch(new URL(script!, `${base}/dispatch`));
  t.equal(asset.status, 200, 'the prebuilt board bundle is served');

  const healthy = spawnSyncStatus(...bare(execForm(ops(runtime, 'HEALTHCHECK')[0])), { cwd: image, env, ...asUser });
  t.equal(healthy, 0, 'the HEALTHCHECK command says healthy');
  const cli = (...more: string[]) => execFileSync(...bare([...command.slice(0, -1), ...more]), { cwd: image, env, ...asUser, encoding: 'utf8' }).trim();
  cli('guild', 'create', '--id', '563000000000000001', '--name', 'Image');
  t.match(cli('key', 'create', '--guild', '563000000000000001', '--name', 'ops'), /^stmp_\S+$/, 'the admin CLI works in the image (docker compose exec node-a …)');

  server.kill('SIGTERM');
  t.equal(await exited, 0, 'SIGTERM stops it cleanly');
  t.notMatch(out, /building|error/i, 'nothing was built or failed at run time');
});

function spawnSyncStatus(cmd: string, args: string[], o: Parameters<typeof execFileSync>[2]): number {
  try {
    execFileSync(cmd, args, { ...o, stdio: 'ignore' });
    return 0;
  } catch (err) {
    return (err as { status: number }).status;
  }
}

/** Copies the build context: every file of the checkout that .dockerignore does not leave out. */
function copyContext(from: string, to: string) {
  cpSync(from, to, { recursive: true, filter: (src) => src === from || !dockerIgnored(relative(from, src)) });
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.name === 'node_modules') return [];
    return e.isDirectory() ? listFiles(join(dir, e.name), rel) : [rel];
  });
}
