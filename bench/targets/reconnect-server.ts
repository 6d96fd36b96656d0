/**
 * The server of `bench reconnect`: the real composition root on BENCH_DATABASE_URL and the fixed
 * BENCH_PORT (a restart takes the same port, as in production). SIGTERM closes it as a deploy
 * does: every socket gets the restart notice and close 1012.
 */
import { loadConfig } from '../../server/config.ts';
import { startServer } from '../../server/main.ts';
import { report, stopOnSignalOrOrphan } from '../lib/child.ts';

const config = loadConfig({ PORT: process.env.BENCH_PORT, HOST: '127.0.0.1', DATABASE_URL: process.env.BENCH_DATABASE_URL, LOG_LEVEL: 'warn', DEMO: '0' });
const server = await startServer({ config });
report({ port: server.port });
stopOnSignalOrOrphan(() => server.close());
