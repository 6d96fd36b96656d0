/**
 * The server under test: the real composition root (startServer) on BENCH_DATABASE_URL, with its
 * own pool of 10, on a free port. Quiet: warnings and errors only, on stderr.
 */
import { loadConfig } from '../../server/config.ts';
import { startServer } from '../../server/main.ts';
import { report, stopOnSignalOrOrphan } from '../lib/child.ts';

const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: process.env.BENCH_DATABASE_URL, LOG_LEVEL: 'warn', DEMO: '0' });
const server = await startServer({ config });
report({ port: server.port });
stopOnSignalOrOrphan(() => server.close());
