import postgres from 'postgres';

export type Sql = postgres.Sql<{}>;
/** A connection that may be inside a transaction; store functions take this. */
export type Db = Sql | postgres.TransactionSql<{}>;

export function connect(url: string, max = 10): Sql {
  return postgres(url, {
    max,
    onnotice: () => {},
    connection: { application_name: 'dispatch-terminal' },
    types: { bigint: postgres.BigInt },
    transform: { undefined: null },
  });
}
