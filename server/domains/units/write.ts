import type { Deps } from '../../deps.ts';
import { inGuildTx, type Tx } from '../../store/tx.ts';

/** PostgreSQL's verdict on a statement: unique index (23505), foreign key (23503), deadlock (40P01). */
export function pgCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? (err as { code?: string }).code : undefined;
}

/**
 * `inGuildTx` for unit, slot and stand-by writes. These lock a person, a unit and its seats; the
 * rare deadlock PostgreSQL breaks between two of them is retried (the loser rolled back and emitted
 * nothing), so the caller never sees it.
 */
export async function guildWrite<T>(deps: Deps, guildId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inGuildTx(deps.db, deps.bus, guildId, fn);
    } catch (err) {
      if (attempt < 4 && pgCode(err) === '40P01') continue;
      throw err;
    }
  }
}
