/**
 * compose.yaml read by a real parser (Debian's docker-compose 1.29: `docker-compose config`), and
 * what it says checked against the files it mounts and builds: nginx's upstream names exactly the
 * nodes, the nodes trust exactly the proxy, only the proxy is published, and the proxy's own
 * nginx.conf passes `nginx -t`. The proxy's behaviour is test/deploy/proxy.test.ts.
 */
import t from 'tap';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDebianPackages } from '../helpers/debian.ts';
import { dockerfileStages, repoRoot, stageEnv } from '../helpers/dockerfile.ts';
import { deployNginxDir, selfSignedCertificate } from '../helpers/nginx.ts';

ensureDebianPackages([['docker-compose', 'docker-compose'], ['nginx', 'nginx'], ['openssl', 'openssl']]);

/** `docker-compose config` on compose.yaml with the example settings (deploy/env.example) and `env` over them. */
function composeConfig(env: Record<string, string>) {
  return spawnSync('docker-compose', ['--env-file', 'deploy/env.example', '-f', 'compose.yaml', 'config'], {
    cwd: repoRoot, encoding: 'utf8', env: { PATH: process.env.PATH!, HOME: tmpdir(), ...env },
  });
}

/** YAML to a value, by the YAML library docker-compose itself runs on (python3-yaml, its dependency). */
function parseYaml(text: string): any {
  return JSON.parse(execFileSync('python3', ['-c', 'import sys, json, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'], { input: text, encoding: 'utf8' }));
}

t.test('the example settings leave the database password to the admin: config refuses to run without it', async (t) => {
  const res = composeConfig({});
  t.not(res.status, 0);
  t.match(res.stderr, /set POSTGRES_PASSWORD in \.env/);
});

t.test('docker-compose config accepts compose.yaml, and it says what the deployment needs', async (t) => {
  const res = composeConfig({ POSTGRES_PASSWORD: 'pw4test' });
  t.equal(res.status, 0, `valid: ${res.stderr}`);
  const config = parseYaml(res.stdout);
  const s = config.services;
  t.same(Object.keys(s).sort(), ['node-a', 'node-b', 'postgres', 'proxy', 'redis']);
  const published = Object.entries(s).filter(([, v]: [string, any]) => v.ports).map(([k, v]: [string, any]) => [k, v.ports.map((p: any) => Number(p.target)).sort()]);
  t.same(published, [['proxy', [443, 80]]], 'only the proxy is published: 80 and 443');

  const proxyAddress = s.proxy.networks.backend.ipv4_address;
  const image = stageEnv(dockerfileStages(), dockerfileStages().at(-1)!);
  const nodes = Object.keys(s).filter((name) => s[name].build);
  t.same(nodes, ['node-a', 'node-b'], 'two server nodes built from the Dockerfile');
  for (const name of nodes) {
    const n = s[name];
    t.equal(n.build.context, repoRoot.replace(/\/$/, ''), `${name}: built from this Dockerfile`);
    t.match(n.environment, {
      DATABASE_URL: 'postgres://dispatch:pw4test@postgres:5432/dispatch', REDIS_URL: 'redis://redis:6379',
      PUBLIC_URL: 'https://localhost', TRUSTED_PROXIES: proxyAddress,
    }, `${name}: the shared database and Redis, the public URL, the proxy trusted for X-Forwarded-For`);
    t.same(n.depends_on, { postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } }, `${name}: starts once PostgreSQL and Redis are healthy`);
    t.equal(n.environment.PORT ?? image.PORT, '3000', `${name}: listens on 3000`);
  }
  t.same(s.proxy.depends_on, Object.fromEntries(nodes.map((n) => [n, { condition: 'service_healthy' }])), 'the proxy starts once the nodes are ready');
  for (const name of ['postgres', 'redis', 'proxy']) t.ok(s[name].healthcheck?.test, `${name} has a health check`);
  t.ok(dockerfileStages().at(-1)!.instructions.some((i) => i.op === 'HEALTHCHECK'), 'the nodes\' health check is the image\'s');

  // The proxy runs the nginx files of deploy/nginx/ (those proxy.test.ts runs) on the nodes' fixed addresses.
  t.ok(s.proxy.volumes.includes(`${join(repoRoot, 'deploy/nginx')}:/etc/nginx/dispatch-terminal:ro`), 'deploy/nginx is mounted');
  t.ok(s.proxy.volumes.includes(`${join(repoRoot, 'deploy/certs')}:/etc/nginx/certs:ro`), 'the certificate folder is mounted');
  t.same(s.proxy.command.slice(0, 3), ['nginx', '-c', '/etc/nginx/dispatch-terminal/nginx.conf']);
  const nginxConf = readFileSync(join(deployNginxDir, 'nginx.conf'), 'utf8');
  const upstream = /upstream dispatch_terminal \{([^}]*)\}/.exec(nginxConf)![1];
  const servers = [...upstream.matchAll(/^\s*server\s+(\S+?)[\s;]/gm)].map((m) => m[1]);
  t.same(servers.sort(), nodes.map((n) => `${s[n].networks.backend.ipv4_address}:3000`).sort(), 'nginx\'s upstream is every node, by its fixed address');
  for (const file of ['dispatch-terminal-http.conf', 'dispatch-terminal-server.conf']) {
    t.match(nginxConf, new RegExp(`include ${file};`), `nginx.conf includes ${file}`);
    t.ok(existsSync(join(deployNginxDir, file)));
  }
  t.match(readFileSync(join(repoRoot, '.dockerignore'), 'utf8'), /^deploy\/certs$/m, 'the certificates never go into an image');
});

t.test('the proxy\'s nginx.conf passes nginx -t, with only its certificate files and user replaced', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dt-nginx-t-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(deployNginxDir, dir, { recursive: true });
  const cert = selfSignedCertificate(dir);
  const conf = join(dir, 'nginx.conf');
  const original = readFileSync(conf, 'utf8');
  const local = original
    .replace('/etc/nginx/certs/fullchain.pem', cert.certFile).replace('/etc/nginx/certs/privkey.pem', cert.keyFile)
    .replace(/^user nginx;$/m, process.getuid?.() === 0 ? 'user root;' : '')
    .replace(/^pid .*;$/m, `pid ${dir}/nginx.pid;`);
  t.not(local, original);
  writeFileSync(conf, local);
  // Its logs go to the container's stdout and stderr: here files (a socket, as spawn's pipes are, cannot be opened as /dev/stdout).
  const output = openSync(join(dir, 'output.log'), 'w');
  const res = spawnSync('nginx', ['-t', '-p', dir, '-e', join(dir, 'error.log'), '-c', conf], { stdio: ['ignore', output, output] });
  closeSync(output);
  const said = readFileSync(join(dir, 'output.log'), 'utf8');
  t.equal(res.status, 0, said);
  t.match(said, /test is successful/);
});
