import t from 'tap';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// tsx runs the code without checking types; this keeps server, SDK, board, tests and benches typed.
t.test('the whole project typechecks (tsc --noEmit)', async (t) => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  const { code, out } = await new Promise<{ code: number; out: string }>((resolve) => {
    execFile(process.execPath, [tsc, '--noEmit', '-p', root], { cwd: root, timeout: 170_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` });
    });
  });
  t.equal(code, 0, out.split('\n').slice(0, 30).join('\n') || 'tsc exited non-zero');
});
