// Each command imports what it needs when it runs (`await import`): a command that writes one row
// does not load the server, the Discord bot, the charts or the board, and starts in well under a second.
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { createLog } from './core/log.ts';
import { openDatabase } from './store/open.ts';
import { isScope, scopes as knownScopes } from '../contract/scopes.ts';
import type { Database, Sql } from './store/db.ts';
import type { Deps } from './deps.ts';
import { recordRunningServer, runningServerUrl } from './store/running-server.ts';
import { tolerateUnheldPostgresRejections } from './store/faults.ts';

const usage = `usage: dispatch-terminal <command> [options]

  serve                                   start the server (seeds a demo guild on first start)
  migrate                                 apply database migrations
  guild create --id <id> --name <name>
  key create --guild <id> --name <name> [--scopes a,b]     prints only the key
  person add --guild <id> --user <id> --nickname <n> --badge <b> [--rank <r>] [--admin]
  login-link --guild <id> --user <id>                       prints only the URL
  demo                                    seed the demo guild if missing; print its login link and key
  alarm [<login-link>] [--player <cmd>] [--state <file>]
                                          alarm client for a station PC: prints and rings every unit alarm;
                                          needs a link once (the session is kept in --state, default
                                          ~/.config/dispatch-terminal/alarm.json); no database needed
  alarm --logout | --test-tone            end the saved session / play the tone once

Environment: PORT, HOST, PUBLIC_URL, DATABASE_URL (unset: embedded PostgreSQL in DATA_DIR), DATA_DIR, REDIS_URL, LOG_LEVEL.`;

class UsageError extends Error {}

const options = {
  id: { type: 'string' }, name: { type: 'string' }, guild: { type: 'string' }, scopes: { type: 'string' },
  user: { type: 'string' }, nickname: { type: 'string' }, badge: { type: 'string' }, rank: { type: 'string' },
  admin: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
} as const;

function need(values: Record<string, unknown>, ...names: string[]): void {
  const missing = names.filter((n) => typeof values[n] !== 'string' || (values[n] as string).trim() === '');
  if (missing.length) throw new UsageError(`missing ${missing.map((n) => `--${n}`).join(', ')}`);
}

/**
 * Until the function returned is called, SIGINT and SIGTERM end the process at once with `code`.
 * Dying of the signal would leave a PostgreSQL this process started running; exiting runs pid.ts's
 * exit hook, which asks it for a fast shutdown.
 */
function exitOnStopSignal(code: number): () => void {
  const exit = () => process.exit(code);
  process.once('SIGINT', exit);
  process.once('SIGTERM', exit);
  return () => {
    process.off('SIGINT', exit);
    process.off('SIGTERM', exit);
  };
}

async function withDb<T>(fn: (sql: Sql, config: Config, db: Database) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const interruptible = exitOnStopSignal(130);
  try {
    const { db, close } = await openDatabase(config, createLog(config.logLevel === 'info' ? 'warn' : config.logLevel), 2);
    try {
      return await fn(db.sql, config, db);
    } finally {
      await close();
    }
  } finally {
    interruptible();
  }
}

async function serve() {
  const starting = exitOnStopSignal(0); // asked to stop while starting: end now
  const { startServer } = await import('./main.ts');
  const { boardBundle } = await import('./domains/board/bundle.ts');
  const server = await startServer();
  const { config } = server.deps;
  const forget = recordOrWarn(server.deps);
  let stoppingSince = 0;
  const stop = async () => {
    if (stoppingSince) {
      // Asked again (not the same signal twice, as from npm and the terminal both): do not wait for
      // a stop that hangs; the exit hook still asks PostgreSQL for a fast shutdown.
      if (Date.now() - stoppingSince < 2000) return;
      server.deps.log.warn('asked again to stop; exiting now');
      process.exit(1);
    }
    stoppingSince = Date.now();
    forget();
    await server.close();
    process.exit(0);
  };
  starting();
  tolerateUnheldPostgresRejections(server.deps.log);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Read the built board now, not on its first visitor's request; a missing build is logged here and tried again per request.
  boardBundle().catch((err) => server.deps.log.error('the board cannot be served', { error: String(err) }));
  if (config.demo) {
    const { seedDemo, seedDemoHistory } = await import('./seed/demo.ts');
    const demo = await seedDemo(server.deps.db, config.publicUrl);
    if (demo) {
      await seedDemoHistory(server.deps.db);
      printDemo(demo);
    }
  }
  console.log(`Dispatch Terminal listening on ${config.publicUrl}  (board: ${config.publicUrl}/dispatch, API: ${config.publicUrl}/api/v1)`);
}

/** server.json for the CLI's links; a server that cannot write it still serves (the CLI then uses PORT/PUBLIC_URL). */
function recordOrWarn({ config, log }: Deps): () => void {
  try {
    return recordRunningServer(config.dataDir, config.publicUrl);
  } catch (err) {
    log.warn('cannot record the server in DATA_DIR; the CLI will not know its URL', { error: String(err) });
    return () => {};
  }
}

/** Base of the links the CLI prints: PUBLIC_URL when given, else the running server's own, else the one PORT/HOST make. */
function linkBase(config: Config): string {
  return config.publicUrlFixed ? config.publicUrl : (runningServerUrl(config.dataDir) ?? config.publicUrl);
}

function printDemo(demo: { guildId: string; loginLink: string; apiKey: string }) {
  console.log(`\nDemo guild ${demo.guildId} created.`);
  console.log(`  One-time login link (15 min): ${demo.loginLink}`);
  console.log(`  Unscoped API key (shown once): ${demo.apiKey}`);
  console.log(`  Try: curl -H "Authorization: Bearer ${demo.apiKey}" -H 'content-type: application/json' -d '{"badge":1}' ${demo.loginLink.split('/auth/')[0]}/api/v1/admin/clock-in\n`);
}

export async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  const [cmd, sub] = positionals;
  if (values.help || !cmd) {
    console.log(usage);
    return;
  }
  // The bin runs `alarm` as the SDK's own entry (client-sdk/alarm-cli.ts), never this file.
  if (cmd === 'alarm') throw new UsageError('alarm is run by the bin with its options after the command: dispatch-terminal alarm [<login-link>] [--player <cmd>] [--state <file>]');
  switch (`${cmd}${sub ? ` ${sub}` : ''}`) {
    case 'serve':
      return serve();
    case 'migrate':
      return withDb(async () => console.log('migrations up to date'));
    case 'guild create':
      need(values, 'id', 'name');
      if (!/^[0-9A-Za-z_-]{1,64}$/.test(values.id!)) throw new UsageError('--id must be 1-64 letters, digits, _ or -');
      return withDb(async (sql) => {
        const { insertGuild } = await import('./domains/guilds/store.ts');
        if (!(await insertGuild(sql, values.id!, values.name!.trim()))) throw new UsageError(`guild ${values.id} exists already`);
        console.log(`guild ${values.id} created`);
      });
    case 'key create':
      need(values, 'guild', 'name');
      return withDb(async (sql) => {
        const scopes = values.scopes === undefined ? null : values.scopes.split(',').map((s) => s.trim()).filter(Boolean);
        const unknown = scopes?.filter((s) => !isScope(s)) ?? [];
        if (unknown.length) throw new UsageError(`unknown scope ${unknown.join(', ')}; known: ${knownScopes.join(', ')}`);
        if (scopes && scopes.length === 0) throw new UsageError('--scopes needs at least one scope');
        await requireGuild(sql, values.guild!);
        const { createApiKey } = await import('./domains/apikeys/service.ts');
        console.log((await createApiKey(sql, values.guild!, values.name!.trim(), scopes)).key);
      });
    case 'person add':
      need(values, 'guild', 'user', 'nickname', 'badge');
      if (!/^\d{1,6}$/.test(values.badge!)) throw new UsageError('--badge must be 1 to 6 digits');
      return withDb(async (sql) => {
        await requireGuild(sql, values.guild!);
        const { insertPerson, rankIdByIdOrName, rankNames } = await import('./domains/people/store.ts');
        const { normalizeBadge } = await import('./core/badge.ts');
        let rankId: string | null = null;
        if (values.rank) {
          rankId = await rankIdByIdOrName(sql, values.guild!, values.rank);
          if (!rankId) throw new UsageError(`unknown rank ${values.rank}; ranks: ${(await rankNames(sql, values.guild!)).join(', ') || '(none)'}`);
        }
        const badge = normalizeBadge(values.badge!);
        const added = await insertPerson(sql, values.guild!, { userId: values.user!, nickname: values.nickname!.trim(), badge, rankId, isAdmin: !!values.admin });
        if (!added) throw new UsageError(`user ${values.user} or badge ${badge} already exists in guild ${values.guild}`);
        console.log(`person ${values.user} added with badge ${badge}`);
      });
    case 'login-link':
      need(values, 'guild', 'user');
      return withDb(async (sql, config) => {
        const { createLoginLink } = await import('./auth/login-links.ts');
        console.log(await createLoginLink(sql, linkBase(config), values.guild!, values.user!));
      });
    case 'demo':
      return withDb(async (_sql, config, db) => {
        const { seedDemo, seedDemoHistory } = await import('./seed/demo.ts');
        const demo = await seedDemo(db, linkBase(config));
        if (demo) {
          await seedDemoHistory(db);
          printDemo(demo);
        }
        else console.log('demo guild exists already; get a login link with: dispatch-terminal login-link --guild 100000000000000001 --user 200000000000000001');
      });
    default:
      throw new UsageError(`unknown command "${positionals.join(' ')}"\n\n${usage}`);
  }
}

async function requireGuild(sql: Sql, guildId: string) {
  const [row] = await sql`select 1 from guilds where id = ${guildId}`;
  if (!row) throw new UsageError(`unknown guild ${guildId}`);
}

if (import.meta.url === `file://${process.argv[1]}` || process.env.DT_CLI === '1') {
  main(process.argv.slice(2)).catch((err) => {
    console.error(`error: ${describeFailure(err)}`);
    if (process.env.LOG_LEVEL === 'debug') console.error(err);
    process.exit(1);
  });
}

/** One clear line for the operator; the stack only with LOG_LEVEL=debug. */
function describeFailure(err: any): string {
  if (err instanceof UsageError || err instanceof ConfigError || err?.name === 'TRPCError') return err.message;
  if (err?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || err?.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `${err.message}\n\n${usage}`;
  if (err?.code === 'ECONNREFUSED' || err?.code === 'ENOTFOUND' || err?.code === 'ETIMEDOUT') return `cannot reach PostgreSQL (${err.code} ${err.address ?? err.hostname ?? ''}${err.port ? `:${err.port}` : ''}); check DATABASE_URL`;
  if (err?.name === 'PostgresError') return `PostgreSQL: ${err.message}`;
  return err?.message ?? String(err);
}
