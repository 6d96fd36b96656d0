import postgres from 'postgres';
import { attachWarm } from './warm.ts';

export type Sql = postgres.Sql<{}>;
/** A connection that may be inside a transaction; store functions take this. */
export type Db = Sql | postgres.TransactionSql<{}>;

/**
 * A pool of `max` connections to `url`. With `max` of 2 or more, one of them is the warm connection
 * of the hot writes (see warm.ts) and the pool proper has the others.
 */
export function connect(url: string, max = 10): Sql {
  if (max < 2) return open(url, max, 'dispatch-terminal');
  const pool = open(url, max - 1, 'dispatch-terminal');
  attachWarm(pool, open(url, 1, 'dispatch-terminal/warm'));
  return pool;
}

function open(url: string, max: number, name: string): Sql {
  return postgres(url, {
    max,
    onnotice: () => {},
    connection: { application_name: name },
    types: { bigint: postgres.BigInt },
    transform: { undefined: null },
  });
}
