/**
 * A failure of the embedded PostgreSQL that the operator can act on. Its message is one line that
 * says what failed and what to do; the CLI prints it as `error: <message>`, never a stack.
 */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}
