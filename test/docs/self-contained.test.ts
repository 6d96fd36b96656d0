import t from 'tap';
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// A plain clone has nothing beside it: no ../shared with the spec or the design. Everything the
// project reads at run or test time, and everything its README points a user at, is inside it.
const root = fileURLToPath(new URL('../..', import.meta.url));
const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);

t.test('no tracked file refers to a folder outside the checkout', async (t) => {
  const outside = /\.\.\/shared\b|\bshared\/(spec|DESIGN|STYLE|notes)\b/;
  const self = 'test/docs/self-contained.test.ts'; // names the folder to look for it
  const offenders = tracked.filter((f) => f !== self && existsSync(join(root, f)) && outside.test(readFileSync(join(root, f), 'utf8')));
  t.same(offenders, [], 'nothing mentions ../shared');
});

function isIgnored(path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', path.endsWith('/') ? `${path}x` : path], { cwd: root });
    return true;
  } catch {
    return false; // exit 1: not ignored
  }
}

t.test('every project path the README names exists', async (t) => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const paths = [...readme.matchAll(/`((?:server|client-sdk|board|sql|test|bench|\.ci)\/[\w./-]*)`/g)].map((m) => m[1]);
  t.ok(paths.length >= 10, `the README names ${paths.length} paths`);
  // A build output (`client-sdk/dist/`) is named rightly when git ignores it and its folder exists:
  // a clean clone has it only after the build the README names, and the test order must not matter.
  const builtOutput = (p: string) => existsSync(join(root, dirname(p.replace(/\/$/, '')))) && isIgnored(p);
  const named = (p: string) => existsSync(join(root, p)) || tracked.some((f) => f.startsWith(`${p}_`)) || builtOutput(p); // `sql/0006`: a migration by number
  t.same(paths.filter((p) => !named(p)), [], 'none is missing');
  t.notMatch(readme, /DESIGN §|\.\.\/shared/, 'no reference to documents a user does not have');
  t.match(readme, /`server\/docs\/api-spec\.md`/, 'the README says where the API specification is');
});

t.test('the docs checks pass in a copy of the checkout with nothing beside it', async (t) => {
  // box/app: a copy of the tracked files; box holds nothing else, so ../shared cannot exist.
  const box = mkdtempSync(join(tmpdir(), 'dt-plain-clone-'));
  t.teardown(() => rmSync(box, { recursive: true, force: true }));
  const app = join(box, 'app');
  for (const f of tracked) {
    if (!existsSync(join(root, f))) continue; // deleted in the working tree, not yet committed
    mkdirSync(dirname(join(app, f)), { recursive: true });
    copyFileSync(join(root, f), join(app, f));
  }
  symlinkSync(join(root, 'node_modules'), join(app, 'node_modules'));
  t.notOk(existsSync(join(box, 'shared')), 'no ../shared beside the copy');
  const run: { code: number; out: string } = await new Promise((resolve) => execFile(
    process.execPath, [join(app, 'node_modules', 'tap', 'dist', 'esm', 'run.mjs'), '-R', 'tap', 'test/docs/docs.test.ts'],
    { cwd: app, env: process.env, timeout: 170_000, maxBuffer: 16 * 1024 * 1024 },
    (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}\n${stderr}` }),
  ));
  t.equal(run.code, 0, 'test/docs/docs.test.ts passes there');
  if (run.code !== 0) t.comment(run.out.split('\n').filter((l) => /not ok|Error|error:/.test(l)).slice(0, 40).join('\n'));
});
