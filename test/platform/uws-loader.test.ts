import t from 'tap';
import uWS, { uwsBuild } from '../../server/transport/uws.ts';
import { glibcVersion, loadUws, shippedBuilds, UwsUnavailableError, type UwsBuild } from '../../server/transport/uws-builds.ts';
import { startTestServer } from '../helpers/server.ts';

/** A stand-in module whose `App` is a native function, as a real binary's is. */
const nativeLike = { App: Math.max };
const build = (name: string, load: () => unknown): UwsBuild => ({ name, runsOn: `where ${name} runs`, load });
const glibcTooOld = () => {
  throw new Error("/x/uws_linux_x64_137.node: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found (required by /x/uws_linux_x64_137.node)");
};
const noBinary = () => {
  throw Object.assign(new Error("Cannot find module '/x/binaries/uws_linux_x64_147.node'\nRequire stack:\n- /x/uws.js"), { code: 'MODULE_NOT_FOUND' });
};

/** Newer-or-equal for dotted versions ("2.41" >= "2.38"). */
const atLeast = (version: string, min: string) => {
  const [a, b] = [version, min].map((v) => v.split('.').map(Number));
  return a[0] > b[0] || (a[0] === b[0] && a[1] >= b[1]);
};

t.test('this system gets the build made for it, and the server runs on it', async (t) => {
  const glibc = glibcVersion();
  const abi = process.versions.modules;
  const newBuildRuns = ['115', '127', '137', '141'].includes(abi) && (!glibc || atLeast(glibc, '2.38'));
  t.equal(uwsBuild, newBuildRuns ? '@btc-vision/uwebsockets.js' : '@trufflesuite/uws-js-unofficial', `Node ${process.versions.node}, glibc ${glibc}`);
  if (abi === '115' && glibc && !atLeast(glibc, '2.38')) {
    t.equal(uwsBuild, '@trufflesuite/uws-js-unofficial', 'Node 20 on an older glibc (this machine: Debian 12, 2.36) keeps the 20.30 build');
  }
  t.match(String(uWS.App), /\[native code\]/, 'the native binary, not a JavaScript stand-in');
  const server = await startTestServer(t);
  const res = await fetch(`${server.url}/api/v1/health`);
  t.equal(res.status, 200, 'the real server answers on it');
});

t.test('the first build that loads natively is used, in the order given', async (t) => {
  t.equal(loadUws([build('first', () => nativeLike), build('second', () => ({ App: Math.min }))]).build, 'first');
  const chosen = loadUws([build('old-glibc', glibcTooOld), build('js-fallback', () => ({ App: function App() {} })), build('works', () => nativeLike)]);
  t.equal(chosen.build, 'works', 'a load error and a JavaScript stand-in are both passed over');
  t.equal(chosen.uws, nativeLike);
});

t.test('where none loads, one line says what runs where and what to do', async (t) => {
  const err = t.throws(() => loadUws([
    { ...shippedBuilds[0], load: glibcTooOld },
    { ...shippedBuilds[1], load: noBinary },
    build('stand-in', () => ({ App: () => null })),
  ])) as Error;
  t.ok(err instanceof UwsUnavailableError);
  const line = err.message;
  t.notMatch(line, /\n/, 'one line');
  t.match(line, `Node ${process.versions.node} on ${process.platform}-${process.arch}`, 'what this system is');
  t.match(line, /Node 20, 22, 24 or 25 on glibc 2\.38 or newer/, 'the new build\'s combinations');
  t.match(line, /Node 20 on glibc 2\.31 or newer/, 'the old build\'s combinations');
  t.match(line, /Use Node 24 on a newer distribution, Node 20, or the container image/, 'what to do');
  t.match(line, /@btc-vision\/uwebsockets\.js: needs glibc 2\.38/, 'why each did not load');
  t.match(line, /@trufflesuite\/uws-js-unofficial: no binary for this Node/);
  t.match(line, /stand-in: a JavaScript stand-in, not the native binary/);
  t.ok(line.length < 900, `bounded (${line.length} characters)`);
});
