import { execFileSync, spawn } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { freePort } from '../../server/store/embedded.ts';
import { ensureDebianPackages } from './debian.ts';

/** The nginx files compose.yaml mounts; tests include them unchanged. */
export const deployNginxDir = fileURLToPath(new URL('../../deploy/nginx/', import.meta.url));

export interface Certificate { certFile: string; keyFile: string; pem: string; spkiSha256: string }

/** A self-signed certificate (its own CA) for 127.0.0.1 and localhost, made by openssl in `dir`. */
export function selfSignedCertificate(dir: string): Certificate {
  const certFile = join(dir, 'fullchain.pem');
  const keyFile = join(dir, 'privkey.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', keyFile, '-out', certFile,
  ], { stdio: 'ignore' });
  const pem = readFileSync(certFile, 'utf8');
  const spki = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return { certFile, keyFile, pem, spkiSha256: createHash('sha256').update(spki).digest('base64') };
}

export interface NginxOptions {
  /** The body of `upstream dispatch_terminal { … }`: this environment's nodes. */
  upstream: string;
  certificate: Certificate;
  /** The port to listen on (default: a free one), when the nodes must know the proxy's URL first. */
  port?: number;
}

export interface RunningNginx {
  url: string;
  port: number;
  /** nginx's error log so far (for failure messages). */
  errors(): string;
}

/**
 * Debian's nginx in front of loopback nodes, configured as in compose.yaml: the wrapper written
 * here holds only what is this environment's own (port, certificate, upstream, pid and temp paths
 * in a temp dir) and includes deploy/nginx/dispatch-terminal-*.conf unchanged. Stopped with the test.
 */
export async function startNginx(t: { teardown(fn: () => unknown): void }, o: NginxOptions): Promise<RunningNginx> {
  ensureDebianPackages([['nginx', 'nginx']]);
  const dir = mkdtempSync(join(tmpdir(), 'dt-nginx-'));
  const port = o.port ?? await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, `
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
${process.getuid?.() === 0 ? 'user root root;' : ''}
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${join(deployNginxDir, 'dispatch-terminal-http.conf')};
  upstream dispatch_terminal {
${o.upstream}
  }
  server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${o.certificate.certFile};
    ssl_certificate_key ${o.certificate.keyFile};
    include ${join(deployNginxDir, 'dispatch-terminal-server.conf')};
  }
}
`);
  const errors = () => { try { return readFileSync(join(dir, 'error.log'), 'utf8'); } catch { return ''; } };
  let stderr = '';
  const child = spawn('nginx', ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM'); // fast shutdown: workers go with it
    await exited;
    rmSync(dir, { recursive: true, force: true });
  });
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}${errors()}`);
    if (await accepts(port)) return { url: `https://127.0.0.1:${port}`, port, errors };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`nginx did not listen: ${stderr}${errors()}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

export interface HttpsAnswer { status: number; headers: Record<string, string | string[] | undefined>; text: string; body: any }

/** One request over https trusting only `ca`, from `localAddress` if given (a loopback address). */
export function httpsCall(url: string, o: { ca: string; method?: string; headers?: Record<string, string>; body?: unknown; localAddress?: string }): Promise<HttpsAnswer> {
  const body = o.body === undefined ? undefined : JSON.stringify(o.body);
  const headers = { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...o.headers };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: o.method ?? 'GET', headers, ca: o.ca, localAddress: o.localAddress, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        const json = /application\/json/.test(String(res.headers['content-type']));
        resolve({ status: res.statusCode!, headers: res.headers, text, body: json ? JSON.parse(text) : text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A `ws` WebSocket class for wss:// that trusts only `ca` (for the SDK's `WebSocket` option). */
export function webSocketTrusting(ca: string, extra: WebSocket.ClientOptions = {}) {
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { ca, ...extra });
    }
  };
}
